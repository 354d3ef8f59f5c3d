package dev.sluice.config;

import java.util.Locale;

/** The medallion layer a pipeline writes: raw input, cleaned and merged records, or aggregates. */
public enum Layer {
  BRONZE,
  SILVER,
  GOLD;

  /** The name written in YAML ({@code bronze}, {@code silver}, {@code gold}). */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
