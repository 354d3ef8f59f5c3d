package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.table.data.Row;
import java.util.Arrays;

/**
 * Some columns of an input row as a row of their own, without copying them: a dedup key costs one small
 * object instead of an {@code Object[]} and a row per input row. Compares by value like a
 * {@code GenericRow}, so stores that keep key rows work with it too.
 */
final class KeyRow implements Row {
  private final Row row;
  private final int[] ordinals;

  KeyRow(Row row, int[] ordinals) {
    this.row = row;
    this.ordinals = ordinals;
  }

  @Override
  public int size() {
    return ordinals.length;
  }

  @Override
  public Object get(int ordinal) {
    return row.get(ordinals[ordinal]);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row other && Row.equalValues(this, other);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(toArray());
  }

  @Override
  public String toString() {
    return Arrays.deepToString(toArray());
  }
}
