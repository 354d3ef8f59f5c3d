package dev.sluice.config;

import java.util.Locale;

/**
 * The format of a pipeline's or a join's input; {@code delta} for tables and upstream pipelines, {@code kafka} for
 * topics (bronze only).
 */
public enum SourceFormat {
  JSON,
  CSV,
  PARQUET,
  DELTA,
  KAFKA;

  /** The name written in YAML and passed to the engine's reader. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
