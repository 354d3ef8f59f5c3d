package dev.sluice.table.internal.expressions;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The order of values of one Delta type, as Spark orders them: numbers by value whatever their Java
 * class (NaN above everything and equal to itself, -0.0 equal to 0.0), strings by Unicode code point
 * (which is UTF-8 byte order, the order of Parquet statistics), binary as unsigned bytes.
 */
final class ValueOrder {
  private ValueOrder() {}

  /** Whether values of {@code type} can be compared by {@link #compare}. */
  static boolean isComparable(DataType type) {
    return type instanceof DecimalType
        || (type instanceof PrimitiveType p && p != PrimitiveType.TIMESTAMP_NTZ);
  }

  static boolean isNumeric(DataType type) {
    if (type instanceof DecimalType) {
      return true;
    }
    return type == PrimitiveType.BYTE || type == PrimitiveType.SHORT || type == PrimitiveType.INTEGER
        || type == PrimitiveType.LONG || type == PrimitiveType.FLOAT || type == PrimitiveType.DOUBLE;
  }

  /**
   * Compares two non-null values of {@code type}.
   *
   * @throws ClassCastException if a value is not of the type's Java class
   */
  static int compare(Object a, Object b, DataType type) {
    if (isNumeric(type)) {
      return compareNumbers((Number) a, (Number) b);
    }
    PrimitiveType p = (PrimitiveType) type;
    return switch (p) {
      case STRING -> compareCodePoints((String) a, (String) b);
      case DATE -> ((LocalDate) a).compareTo((LocalDate) b);
      case TIMESTAMP -> ((Instant) a).compareTo((Instant) b);
      case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
      case BINARY -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      default -> throw new IllegalArgumentException("Values of type " + type + " have no order");
    };
  }

  static int compareNumbers(Number a, Number b) {
    if (isIntegral(a) && isIntegral(b)) {
      return Long.compare(a.longValue(), b.longValue());
    }
    boolean floatingA = a instanceof Double || a instanceof Float;
    boolean floatingB = b instanceof Double || b instanceof Float;
    if (floatingA || floatingB) {
      double x = a.doubleValue();
      double y = b.doubleValue();
      if (x == y) {
        return 0;
      }
      if ((floatingA && floatingB) || !Double.isFinite(x) || !Double.isFinite(y)) {
        return Double.compare(x, y);
      }
    }
    return toBigDecimal(a).compareTo(toBigDecimal(b));
  }

  static BigDecimal toBigDecimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (n instanceof Double || n instanceof Float) {
      return new BigDecimal(n.doubleValue());
    }
    return BigDecimal.valueOf(n.longValue());
  }

  static boolean isIntegral(Number n) {
    return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
  }

  /**
   * Code point order. UTF-16 order differs from it only where the first differing chars include a surrogate
   * (a supplementary code point sorts above U+E000..U+FFFF), so chars are compared directly up to there.
   */
  static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        if (Character.isSurrogate(ca) || Character.isSurrogate(cb)) {
          return Integer.compare(a.codePointAt(i > 0 && Character.isHighSurrogate(a.charAt(i - 1)) ? i - 1 : i),
              b.codePointAt(i > 0 && Character.isHighSurrogate(b.charAt(i - 1)) ? i - 1 : i));
        }
        return Character.compare(ca, cb);
      }
    }
    return Integer.compare(a.length(), b.length());
  }
}
