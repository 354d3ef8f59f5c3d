package dev.sluice.config;

import java.util.Locale;

/** How a gold pipeline joins its stream with a static table. */
public enum JoinType {
  INNER,
  LEFT;

  /** The name written in YAML. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
