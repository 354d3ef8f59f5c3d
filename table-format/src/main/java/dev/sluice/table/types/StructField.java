package dev.sluice.table.types;

import java.util.Map;
import java.util.Objects;

/**
 * One named column. {@code metadata} is the field's free-form metadata map from schema JSON (kept
 * as parsed JSON values: String, Number, Boolean, List, Map), e.g. {@code delta.invariants}.
 */
public record StructField(String name, DataType type, boolean nullable, Map<String, Object> metadata) {
  public StructField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  public static StructField of(String name, DataType type) {
    return new StructField(name, type, true, Map.of());
  }

  public static StructField of(String name, DataType type, boolean nullable) {
    return new StructField(name, type, nullable, Map.of());
  }

  @Override
  public String toString() {
    return name + " " + type + (nullable ? "" : " not null");
  }
}
