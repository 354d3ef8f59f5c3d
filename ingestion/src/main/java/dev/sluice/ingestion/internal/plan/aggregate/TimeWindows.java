package dev.sluice.ingestion.internal.plan.aggregate;

import java.time.Instant;

/**
 * Window assignment in microseconds since the epoch, with Spark's {@code TimeWindowing} formulas: the
 * last window start at or before {@code t} is {@code t - floorMod(t - startTime, slide)}, and a row
 * belongs to the windows starting there and {@code 1 .. ceil(size / slide) - 1} slides earlier that
 * still contain it ({@code start <= t < start + size}).
 */
final class TimeWindows {
  private final long size;
  private final long slide;
  private final long offset;
  private final int maxOverlapping;

  TimeWindows(WindowSpec spec) {
    this.size = micros(spec.size().getSeconds(), spec.size().getNano());
    this.slide = micros(spec.slide().getSeconds(), spec.slide().getNano());
    this.offset = micros(spec.startTime().getSeconds(), spec.startTime().getNano());
    this.maxOverlapping = (int) ((size + slide - 1) / slide);
  }

  /** Most windows one row can belong to: the length {@link #starts}'s array needs. */
  int maxOverlapping() {
    return maxOverlapping;
  }

  long size() {
    return size;
  }

  /** Writes the starts of the windows containing {@code t} into {@code out}, latest first; returns how many. */
  int starts(long t, long[] out) {
    long lastStart = t - Math.floorMod(t - offset, slide);
    int n = 0;
    for (int i = 0; i < maxOverlapping; i++) {
      long start = lastStart - i * slide;
      if (t < start + size) {
        out[n++] = start;
      }
    }
    return n;
  }

  static long micros(Instant t) {
    return micros(t.getEpochSecond(), t.getNano());
  }

  private static long micros(long seconds, int nanos) {
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1000);
  }

  static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }
}
