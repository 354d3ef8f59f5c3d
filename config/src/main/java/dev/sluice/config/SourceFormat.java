package dev.sluice.config;

import java.util.Locale;

/** The format of a pipeline's or a join's input; {@code delta} for tables and upstream pipelines. */
public enum SourceFormat {
  JSON,
  CSV,
  PARQUET,
  DELTA;

  /** The name written in YAML and passed to the engine's reader. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
