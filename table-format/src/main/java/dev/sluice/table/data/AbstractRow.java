package dev.sluice.table.data;

import java.util.Arrays;

/**
 * A row view (of other rows, of a block of columns…) that is equal, as {@link GenericRow} is, to any row of the same
 * values, byte arrays compared by content; subclasses give {@link #size} and {@link #get}.
 */
public abstract class AbstractRow implements Row {
  @Override
  public final boolean equals(Object o) {
    return o instanceof Row other && Row.equalValues(this, other);
  }

  @Override
  public final int hashCode() {
    return Arrays.deepHashCode(toArray());
  }

  @Override
  public String toString() {
    return Arrays.deepToString(toArray());
  }
}
