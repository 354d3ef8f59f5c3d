package dev.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code process} step of a silver pipeline: a user's {@code StatefulProcessor} or
 * {@code FlatMapGroupsWithStateFunction}, loaded by class name from {@code --jars} or the {@code plugins/} folder
 * beside the config, applied to the bronze stream grouped by {@code keys}. Its output rows are what the rest of the
 * pipeline (columns, filter, expectations, dedup, MERGE) sees. {@code timeout} is the function's
 * {@code GroupStateTimeout} or the processor's {@code TimeMode}; {@code event_time} needs {@code watermark}.
 */
public record ProcessConfig(
    String className,
    List<String> keys,
    Mode outputMode,
    Timeout timeout,
    Map<String, String> options,
    Optional<WatermarkConfig> watermark) {
  /** The output mode the processor declares (and the query runs in). */
  public enum Mode {
    APPEND,
    UPDATE;

    /** The name written in YAML, also the engine's. */
    public String yamlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** When state times out or timers fire. */
  public enum Timeout {
    NONE,
    PROCESSING_TIME,
    EVENT_TIME;

    /** The name written in YAML, also the engine's. */
    public String yamlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public ProcessConfig {
    Objects.requireNonNull(className, "className");
    keys = List.copyOf(keys);
    Objects.requireNonNull(outputMode, "outputMode");
    Objects.requireNonNull(timeout, "timeout");
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    Objects.requireNonNull(watermark, "watermark");
  }
}
