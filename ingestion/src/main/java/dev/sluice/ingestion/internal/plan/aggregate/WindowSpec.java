package dev.sluice.ingestion.internal.plan.aggregate;

import java.time.Duration;
import java.util.Objects;

/**
 * A time window group key, Spark's {@code window(column, size[, slide[, startTime]])}: tumbling when the
 * slide equals the size, sliding when it is shorter. Windows are {@code [start, start + size)} with
 * starts at {@code startTime + k * slide} from the epoch, so every row belongs to
 * {@code ceil(size / slide)} windows or one fewer.
 */
public record WindowSpec(String column, Duration size, Duration slide, Duration startTime) {
  public WindowSpec {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(size, "size");
    slide = slide == null ? size : slide;
    startTime = startTime == null ? Duration.ZERO : startTime;
    String call = "window(" + column + ", " + size + ", " + slide + ", " + startTime + ")";
    if (size.isNegative() || size.isZero() || slide.isNegative() || slide.isZero()) {
      throw new IllegalArgumentException(call + ": the window size and slide must be positive durations");
    }
    if (slide.compareTo(size) > 0) {
      throw new IllegalArgumentException(call + ": the slide (" + slide + ") must be at most the window size ("
          + size + "); rows between windows would belong to none");
    }
    if (startTime.abs().compareTo(slide) >= 0) {
      throw new IllegalArgumentException(call + ": the start time must be shorter than the slide (as in Spark);"
          + " use the remainder of dividing it by the slide");
    }
    for (Duration d : new Duration[] {size, slide, startTime}) {
      if (d.getNano() % 1000 != 0) {
        throw new IllegalArgumentException(call + ": " + d + " is finer than a microsecond, the precision of"
            + " timestamps; round it to whole microseconds");
      }
    }
  }

  /** A sliding window (tumbling when {@code slide} equals {@code size}) starting at the epoch. */
  public WindowSpec(String column, Duration size, Duration slide) {
    this(column, size, slide, Duration.ZERO);
  }

  public static WindowSpec tumbling(String column, Duration size) {
    return new WindowSpec(column, size, size);
  }

  public static WindowSpec sliding(String column, Duration size, Duration slide) {
    return new WindowSpec(column, size, slide);
  }

  public boolean isTumbling() {
    return size.equals(slide);
  }

  /** The call as in Spark SQL, e.g. {@code window(event_time, 10 minutes, 5 minutes)}. */
  public String sql() {
    StringBuilder b = new StringBuilder("window(").append(column).append(", ").append(text(size));
    if (!isTumbling() || !startTime.isZero()) {
      b.append(", ").append(text(slide));
    }
    if (!startTime.isZero()) {
      b.append(", ").append(text(startTime));
    }
    return b.append(')').toString();
  }

  private static String text(Duration d) {
    long micros = d.toNanos() / 1000;
    long[] units = {86_400_000_000L, 3_600_000_000L, 60_000_000L, 1_000_000L, 1000L, 1L};
    String[] names = {"days", "hours", "minutes", "seconds", "milliseconds", "microseconds"};
    for (int i = 0; i < units.length; i++) {
      if (micros % units[i] == 0) {
        return micros / units[i] + " " + names[i];
      }
    }
    throw new AssertionError("unreachable: every duration is whole microseconds");
  }
}
