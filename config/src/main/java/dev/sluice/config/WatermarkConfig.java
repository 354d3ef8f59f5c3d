package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * An event-time watermark: rows older than the latest event time minus {@code delay} are late. An event time
 * more than {@code maxFutureSkew} (YAML {@code max_future_skew}, default {@link #DEFAULT_MAX_FUTURE_SKEW}) after
 * the batch's time can't be real yet: it never moves the watermark, and the layer keeps the row aside.
 */
public record WatermarkConfig(String column, Interval delay, Interval maxFutureSkew) {
  /** One day: wider than any clock skew between producers, far narrower than a unit mix-up (ms read as s). */
  public static final Interval DEFAULT_MAX_FUTURE_SKEW = new Interval("1 day", Duration.ofDays(1));

  public WatermarkConfig {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(maxFutureSkew, "maxFutureSkew");
  }

  /** A watermark with the default {@code max_future_skew}. */
  public WatermarkConfig(String column, Interval delay) {
    this(column, delay, DEFAULT_MAX_FUTURE_SKEW);
  }
}
