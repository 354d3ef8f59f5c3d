package dev.sluice.table.internal.expressions;

import dev.sluice.table.types.DataType;

/** A column resolved in a schema: its name as the schema spells it, its position and type. */
public record Column(String name, int ordinal, DataType type) {

  /**
   * Compares two non-null values of this column's type (stats bounds, literals, row values).
   *
   * @throws IllegalArgumentException if a value is not of the column type's Java class
   */
  public int compare(Object a, Object b) {
    try {
      return ValueOrder.compare(a, b, type);
    } catch (ClassCastException e) {
      throw new IllegalArgumentException(
          "Column '" + name + "' has type " + type + ", but a value to compare is a "
              + a.getClass().getSimpleName() + " or " + b.getClass().getSimpleName()
              + "; values must follow the Java mapping documented on DataType", e);
    }
  }
}
