package dev.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code join_stream} step of a silver pipeline: a stream-stream join of its source (the left side) with another
 * pipeline's table read as a stream too (the right side, {@code pipeline} or {@code table}), on key columns named
 * alike on both sides, within a time bound ({@code within}: the right time is in [left time, left time + within],
 * on the two watermark columns; or {@code time_condition}, SQL over aliases {@code l} and {@code r}), with a
 * watermark per side. Right columns whose names clash with left ones (not keys) are renamed {@code <name>_right}.
 */
public record StreamJoinConfig(
    Optional<String> table,
    Optional<String> pipeline,
    Map<String, String> options,
    List<String> keys,
    Type type,
    Optional<Interval> within,
    Optional<String> timeCondition,
    Optional<WatermarkConfig> leftWatermark,
    Optional<WatermarkConfig> rightWatermark) {
  /** The join types of the engine's stream-stream join. */
  public enum Type {
    INNER,
    LEFT_OUTER,
    RIGHT_OUTER,
    FULL_OUTER,
    LEFT_SEMI;

    /** The name written in YAML, also the engine's. */
    public String yamlName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether rows of a side are emitted without a match, or only once matched (semi): both need eviction. */
    public boolean needsBounds() {
      return this != INNER;
    }
  }

  public StreamJoinConfig {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(pipeline, "pipeline");
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    keys = List.copyOf(keys);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(within, "within");
    Objects.requireNonNull(timeCondition, "timeCondition");
    Objects.requireNonNull(leftWatermark, "leftWatermark");
    Objects.requireNonNull(rightWatermark, "rightWatermark");
  }
}
