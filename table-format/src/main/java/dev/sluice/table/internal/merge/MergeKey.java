package dev.sluice.table.internal.merge;

import dev.sluice.table.data.Row;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The key of a row for MERGE matching, with values normalised so that equal SQL values are equal
 * Java keys (decimals ignore trailing zeros, binaries compare by content). A key with a null part
 * matches nothing, as SQL equality on null is never true.
 */
public final class MergeKey {
  private final Object[] parts;
  private final int hash;

  private MergeKey(Object[] parts) {
    this.parts = parts;
    this.hash = Arrays.hashCode(parts);
  }

  /**
   * The key of {@code row} at {@code positions}, or null when a part is null. A one-column key is its normalised
   * value itself (a String's hash is cached, so matching a million keys costs no allocation nor rehash); a
   * wider key is a {@code MergeKey}.
   */
  public static Object of(Row row, int[] positions) {
    if (positions.length == 1) {
      Object v = row.get(positions[0]);
      return v == null ? null : normalise(v);
    }
    Object[] parts = new Object[positions.length];
    for (int i = 0; i < positions.length; i++) {
      Object v = row.get(positions[i]);
      if (v == null) {
        return null;
      }
      parts[i] = normalise(v);
    }
    return new MergeKey(parts);
  }

  /** Part {@code i} of a key made by {@link #of} (binaries as ByteBuffer). */
  public static Object part(Object key, int i) {
    return key instanceof MergeKey k ? k.parts[i] : key;
  }

  private static Object normalise(Object v) {
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    if (v instanceof byte[] b) {
      return ByteBuffer.wrap(b);
    }
    return v;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MergeKey k && Arrays.equals(parts, k.parts);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(parts);
  }
}
