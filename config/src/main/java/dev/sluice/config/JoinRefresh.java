package dev.sluice.config;

import java.util.Locale;

/** When the static side of a join is read again. */
public enum JoinRefresh {
  /** A fresh snapshot for every micro-batch (the default). */
  EVERY_BATCH,
  /** One snapshot when the query starts. */
  ONCE;

  /** The name written in YAML. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
