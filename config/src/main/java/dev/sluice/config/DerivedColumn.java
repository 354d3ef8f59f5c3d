package dev.sluice.config;

import java.util.Objects;

/** A column added or replaced by a SQL expression ({@code CAST(amount AS DOUBLE)}). */
public record DerivedColumn(String name, String expr) {
  public DerivedColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(expr, "expr");
  }
}
