package dev.sluice.config;

import java.util.List;
import java.util.Locale;

/** The medallion layer a pipeline writes: raw input, cleaned and merged records, or aggregates. */
public enum Layer {
  BRONZE,
  SILVER,
  GOLD;

  /**
   * The tables a pipeline of this layer writes besides its sink table {@code table}: bronze and silver
   * quarantine rows to {@code <table>_quarantine}, gold keeps late change rows in {@code <table>_late}.
   */
  public List<String> sideTables(String table) {
    return this == GOLD ? List.of(table + "_late") : List.of(table + "_quarantine");
  }

  /** The name written in YAML ({@code bronze}, {@code silver}, {@code gold}). */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
