package dev.sluice.table.types;

import java.util.Objects;

/** {@code map<keyType, valueType>}. */
public record MapType(DataType keyType, DataType valueType, boolean valueContainsNull) implements DataType {
  public MapType {
    Objects.requireNonNull(keyType, "keyType");
    Objects.requireNonNull(valueType, "valueType");
  }

  @Override
  public String typeName() {
    return "map";
  }

  @Override
  public String toString() {
    return "map<" + keyType + "," + valueType + ">";
  }
}
