package dev.sluice.config;

import java.util.Locale;

/** How a gold pipeline writes its aggregates: MERGE by group key, overwrite, or finalised windows only. */
public enum AggregateOutputMode {
  UPDATE,
  COMPLETE,
  APPEND;

  /** The name written in YAML. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
