package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * A length of time as written in the config ({@code 30 minutes}) and as a {@link Duration}.
 *
 * <p>{@link #text()} uses the engine's interval grammar, so it can be passed on unchanged
 * (for example to {@code withWatermark(column, delay)}).
 */
public record Interval(String text, Duration duration) {
  public Interval {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(duration, "duration");
  }

  @Override
  public String toString() {
    return text;
  }
}
