package dev.sluice.ingestion.internal.plan.aggregate;

import java.time.Duration;
import java.util.Objects;

/** The event-time watermark defined on an aggregation's input ({@code withWatermark(column, delay)}). */
public record WatermarkSpec(String column, Duration delay) {
  public WatermarkSpec {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(delay, "delay");
  }
}
