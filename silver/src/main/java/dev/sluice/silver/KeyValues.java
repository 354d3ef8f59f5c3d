package dev.sluice.silver;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A row's merge-key values as an immutable list whose hash is computed once: a MERGE looks each key up in several
 * maps (winners per key, the table's rows, tombstones), and hashing a list walks it through an iterator every time.
 * Equal to any list of the same values, with the same hash ({@link List#hashCode}).
 */
final class KeyValues extends AbstractList<Object> implements RandomAccess {
  private final Object[] values;
  private int hash;
  private boolean hashed;

  KeyValues(Object[] values) {
    this.values = values;
  }

  @Override
  public Object get(int index) {
    return values[index];
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public int hashCode() {
    if (!hashed) {
      hash = Arrays.hashCode(values);
      hashed = true;
    }
    return hash;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (o instanceof KeyValues k) {
      return hashCode() == k.hashCode() && Arrays.equals(values, k.values);
    }
    return o instanceof List<?> l && l.size() == values.length && super.equals(o);
  }

  @Override
  public Object[] toArray() {
    return values.clone();
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
