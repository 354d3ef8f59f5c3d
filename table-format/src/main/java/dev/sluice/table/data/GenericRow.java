package dev.sluice.table.data;

import java.util.Arrays;

/** A row backed by an array of values. Equality compares values (byte arrays by content). */
public final class GenericRow implements Row {
  private final Object[] values;

  GenericRow(Object[] values) {
    this.values = values;
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public Object get(int ordinal) {
    return values[ordinal];
  }

  @Override
  public Object[] toArray() {
    return values.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row other && Row.equalValues(this, other);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(values);
  }

  @Override
  public String toString() {
    return Arrays.deepToString(values);
  }
}
