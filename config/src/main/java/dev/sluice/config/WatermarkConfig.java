package dev.sluice.config;

import java.util.Objects;

/** An event-time watermark: rows older than the latest event time minus {@code delay} are late. */
public record WatermarkConfig(String column, Interval delay) {
  public WatermarkConfig {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(delay, "delay");
  }
}
