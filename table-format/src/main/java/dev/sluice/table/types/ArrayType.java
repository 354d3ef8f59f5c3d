package dev.sluice.table.types;

import java.util.Objects;

/** {@code array<elementType>}. */
public record ArrayType(DataType elementType, boolean containsNull) implements DataType {
  public ArrayType {
    Objects.requireNonNull(elementType, "elementType");
  }

  @Override
  public String typeName() {
    return "array";
  }

  @Override
  public String toString() {
    return "array<" + elementType + ">";
  }
}
