package dev.sluice.config;

import java.util.Objects;

/**
 * A declared input column: its name and Delta type name ({@code string}, {@code long}, {@code integer},
 * {@code short}, {@code byte}, {@code double}, {@code float}, {@code boolean}, {@code binary}, {@code date},
 * {@code timestamp}, {@code timestamp_ntz} or {@code decimal(p,s)}), lower-case.
 */
public record ColumnSpec(String name, String type, boolean nullable) {
  public ColumnSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }
}
