package dev.sluice.table.data;

import java.util.Arrays;

/**
 * One row of values, positionally matching a {@link dev.sluice.table.types.StructType}. Values use
 * the Java mapping documented on {@link dev.sluice.table.types.DataType}.
 */
public interface Row {
  int size();

  Object get(int ordinal);

  default boolean isNullAt(int ordinal) {
    return get(ordinal) == null;
  }

  /** A row over the given values (the array is not copied: the caller must not change it afterwards). */
  static Row of(Object... values) {
    return new GenericRow(values);
  }

  /** The values as a new array. */
  default Object[] toArray() {
    Object[] out = new Object[size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(i);
    }
    return out;
  }

  /** Value equality that compares {@code byte[]} by content; used by tests and MERGE. */
  static boolean equalValues(Row a, Row b) {
    return Arrays.deepEquals(a.toArray(), b.toArray());
  }
}
