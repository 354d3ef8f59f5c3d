package dev.sluice.config;

import java.util.Objects;

/** When a pipeline's query runs its micro-batches (the engine's triggers). */
public sealed interface TriggerConfig {
  /** Everything available at start, in rate-limited batches, then stop ({@code available_now}). */
  record AvailableNow() implements TriggerConfig {}

  /** One batch with everything available, then stop ({@code once}). */
  record Once() implements TriggerConfig {}

  /** A batch every interval, until stopped ({@code {processing_time: 30 seconds}}). */
  record ProcessingTime(Interval interval) implements TriggerConfig {
    public ProcessingTime {
      Objects.requireNonNull(interval, "interval");
    }
  }
}
