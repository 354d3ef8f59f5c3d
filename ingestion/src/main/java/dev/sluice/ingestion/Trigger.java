package dev.sluice.ingestion;

import java.time.Duration;
import java.util.Objects;

/** When a query runs its micro-batches, as in Spark. */
public sealed interface Trigger {
  /** Next batch as soon as the previous one ends (Spark's default). */
  record Default() implements Trigger {}

  /** A batch every {@code interval} (a batch that runs longer delays the next one; none are skipped or queued). */
  record ProcessingTime(Duration interval) implements Trigger {
    public ProcessingTime {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative()) {
        throw new IllegalArgumentException("A processingTime interval must not be negative, got " + interval);
      }
    }
  }

  /** One batch with everything available (rate limits ignored), then stop. */
  record Once() implements Trigger {}

  /** Everything available at start, in as many rate-limited batches as needed, then stop. */
  record AvailableNow() implements Trigger {}

  static Trigger defaultTrigger() {
    return new Default();
  }

  static Trigger processingTime(Duration interval) {
    return new ProcessingTime(interval);
  }

  /** Parses {@code "10 seconds"}, {@code "500 ms"}, {@code "1 minute"} (Spark's interval strings). */
  static Trigger processingTime(String interval) {
    return new ProcessingTime(Durations.parse(interval, "trigger processingTime"));
  }

  static Trigger once() {
    return new Once();
  }

  static Trigger availableNow() {
    return new AvailableNow();
  }

  /** True for triggers that stop by themselves. */
  default boolean isFinite() {
    return this instanceof Once || this instanceof AvailableNow;
  }
}
