package dev.sluice.ingestion.internal.plan.arbitrary;

/**
 * The earliest timeout or timer (epoch ms) in an operator's store as the last batch left it, so that the runner
 * can tell without the store whether a batch without data must run. Unknown until the operator has gone through
 * its whole store once (after a restart, an earlier run filled it); unknown means "may be due".
 */
final class DueTimes {
  private boolean known;
  private long min = Long.MAX_VALUE;

  /** Whether something fires at a threshold of {@code thresholdMs}: a time strictly before it. */
  boolean dueBefore(long thresholdMs) {
    return !known || min < thresholdMs;
  }

  boolean known() {
    return known;
  }

  /** Starts a full pass over the store. */
  void reset() {
    known = true;
    min = Long.MAX_VALUE;
  }

  void add(long timeMs) {
    if (timeMs >= 0) {
      min = Math.min(min, timeMs);
    }
  }
}
