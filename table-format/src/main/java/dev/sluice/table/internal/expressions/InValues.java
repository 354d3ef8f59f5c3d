package dev.sluice.table.internal.expressions;

import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values of an IN list, looked up as a MERGE's key pruning needs (a million keys, a lookup per row and a
 * range question per file). Membership hashes values normalised so that equal values under the column's order
 * are equal Java objects (integers as Long, decimals without trailing zeros, binaries by content); floating
 * point columns, whose order has NaN and -0.0 rules, and values of an unexpected class fall back to the order.
 * The range question ("is a value within [min, max]") first checks the list's own min and max, and sorts the
 * list (once) only when a file's range falls strictly inside them.
 */
final class InValues {
  private static final int LINEAR = 16;

  private final Column column;
  private final List<Object> values;
  private final Set<Object> hashed;
  // Computed on first use, under the lock (a pruner may be shared by threads).
  private Object min;
  private Object max;
  private Object[] sorted;

  InValues(Column column, List<Object> values) {
    this.column = column;
    this.values = values;
    this.hashed = hashable(column) && values.size() > LINEAR ? index(values) : null;
  }

  private Set<Object> index(List<Object> list) {
    Set<Object> out = new HashSet<>(Math.max(16, (int) (list.size() / 0.75f) + 1));
    for (Object v : list) {
      Object k = normalise(v);
      if (k == null) {
        return null;
      }
      out.add(k);
    }
    return out;
  }

  private static boolean hashable(Column column) {
    return column.type() instanceof DecimalType
        || (column.type() instanceof PrimitiveType p && p != PrimitiveType.FLOAT && p != PrimitiveType.DOUBLE
            && ValueOrder.isComparable(p));
  }

  /** The hash form of a value of this column, or null when the value has no hash form (compare instead). */
  private Object normalise(Object v) {
    if (column.type() instanceof DecimalType) {
      if (v instanceof BigDecimal d) {
        return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
      }
      return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
          ? normalise(BigDecimal.valueOf(((Number) v).longValue())) : null;
    }
    return switch ((PrimitiveType) column.type()) {
      case STRING -> v instanceof String ? v : null;
      case BYTE, SHORT, INTEGER, LONG ->
          v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
              ? (Object) ((Number) v).longValue() : null;
      case BINARY -> v instanceof byte[] b ? ByteBuffer.wrap(b) : null;
      case DATE -> v instanceof java.time.LocalDate ? v : null;
      case TIMESTAMP -> v instanceof java.time.Instant ? v : null;
      case BOOLEAN -> v instanceof Boolean ? v : null;
      default -> null;
    };
  }

  /** Whether {@code value} (non-null) equals one of the values under the column's order. */
  boolean contains(Object value) {
    if (hashed != null) {
      Object k = normalise(value);
      if (k != null) {
        return hashed.contains(k);
      }
    }
    if (values.size() <= LINEAR) {
      for (Object v : values) {
        if (column.compare(v, value) == 0) {
          return true;
        }
      }
      return false;
    }
    Object[] s = sorted();
    return Arrays.binarySearch(s, value, column::compare) >= 0;
  }

  /** Whether some value v has {@code low <= v <= high}; a null bound is open. */
  boolean anyBetween(Object low, Object high) {
    if (values.isEmpty()) {
      return false;
    }
    if (values.size() <= LINEAR) {
      for (Object v : values) {
        if ((low == null || column.compare(low, v) <= 0) && (high == null || column.compare(high, v) >= 0)) {
          return true;
        }
      }
      return false;
    }
    bounds();
    if ((low != null && column.compare(low, max) > 0) || (high != null && column.compare(high, min) < 0)) {
      return false;
    }
    if (low == null || high == null || column.compare(low, min) <= 0 || column.compare(high, max) >= 0) {
      return true;
    }
    Object[] s = sorted();
    int i = Arrays.binarySearch(s, low, column::compare);
    int first = i >= 0 ? i : -i - 1;
    return first < s.length && column.compare(s[first], high) <= 0;
  }

  private synchronized void bounds() {
    if (min != null) {
      return;
    }
    Object lo = values.get(0);
    Object hi = lo;
    for (Object v : values) {
      if (column.compare(v, lo) < 0) {
        lo = v;
      } else if (column.compare(v, hi) > 0) {
        hi = v;
      }
    }
    min = lo;
    max = hi;
  }

  private synchronized Object[] sorted() {
    if (sorted == null) {
      Object[] s = values.toArray();
      Arrays.sort(s, column::compare);
      sorted = s;
    }
    return sorted;
  }
}
