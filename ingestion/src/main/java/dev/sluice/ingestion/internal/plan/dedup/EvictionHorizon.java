package dev.sluice.ingestion.internal.plan.dedup;

/**
 * The smallest watermark (epoch microseconds) that would evict a key of a store as the last batch left it,
 * so that a step can tell without its store whether a batch without data is worth running. Unknown until
 * the step has gone through its whole store once (after a restart, an earlier run filled the store).
 */
final class EvictionHorizon {
  private boolean known;
  private long min = Long.MAX_VALUE;

  /**
   * Whether a watermark of {@code currentMs} would evict a key. Without knowledge of the store, any move of
   * the watermark may.
   */
  boolean wouldEvict(long previousMs, long currentMs) {
    return known ? min <= currentMs * 1000 : currentMs > previousMs;
  }

  /** Starts a full pass over the store. */
  void reset() {
    known = true;
    min = Long.MAX_VALUE;
  }

  /** A key that stays in the store until the watermark reaches {@code evictAtMicros} (null: never). */
  void add(Long evictAtMicros) {
    if (evictAtMicros != null) {
      min = Math.min(min, evictAtMicros);
    }
  }
}
