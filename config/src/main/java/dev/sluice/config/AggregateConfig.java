package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The aggregation of a gold pipeline: group keys, an optional window, measures and the output mode. */
public record AggregateConfig(
    List<String> groupBy,
    Optional<WindowConfig> window,
    List<String> measures,
    AggregateOutputMode outputMode,
    Optional<WatermarkConfig> watermark) {
  public AggregateConfig {
    groupBy = List.copyOf(groupBy);
    Objects.requireNonNull(window, "window");
    measures = List.copyOf(measures);
    Objects.requireNonNull(outputMode, "outputMode");
    Objects.requireNonNull(watermark, "watermark");
  }
}
