package dev.sluice.ingestion;

import java.util.Locale;

/** What a query writes each batch, as in Spark: new rows, changed rows, or the whole result. */
public enum OutputMode {
  APPEND,
  UPDATE,
  COMPLETE;

  /** Parses {@code append}, {@code update} or {@code complete}, ignoring case. */
  public static OutputMode of(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Unknown output mode '" + name + "'; use append, update or complete");
    }
  }
}
