package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The aggregation of a gold pipeline: group keys, an optional time window or session window (never both),
 * measures and the output mode.
 */
public record AggregateConfig(
    List<String> groupBy,
    Optional<WindowConfig> window,
    Optional<SessionWindowConfig> sessionWindow,
    List<String> measures,
    AggregateOutputMode outputMode,
    Optional<WatermarkConfig> watermark) {
  public AggregateConfig {
    Objects.requireNonNull(sessionWindow, "sessionWindow");
    if (window.isPresent() && sessionWindow.isPresent()) {
      throw new IllegalArgumentException("a time window or a session window, not both");
    }
    groupBy = List.copyOf(groupBy);
    Objects.requireNonNull(window, "window");
    measures = List.copyOf(measures);
    Objects.requireNonNull(outputMode, "outputMode");
    Objects.requireNonNull(watermark, "watermark");
  }

  /** Without a session window. */
  public AggregateConfig(List<String> groupBy, Optional<WindowConfig> window, List<String> measures,
      AggregateOutputMode outputMode, Optional<WatermarkConfig> watermark) {
    this(groupBy, window, Optional.empty(), measures, outputMode, watermark);
  }

  /** The event-time column of the window or session window, if any. */
  public Optional<String> windowColumn() {
    return window.map(WindowConfig::column).or(() -> sessionWindow.map(SessionWindowConfig::column));
  }
}
