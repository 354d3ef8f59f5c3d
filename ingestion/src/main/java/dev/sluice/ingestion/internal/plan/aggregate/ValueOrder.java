package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Spark's ordering of non-null values for {@code min} and {@code max}: strings by code point (the order
 * of their UTF-8 bytes), binary unsigned byte by byte, {@code false < true}, and for floating point
 * {@code -0.0 = 0.0} and NaN above every other value.
 */
final class ValueOrder {
  private ValueOrder() {}

  /** The ordering of {@code type}, or null when Spark can't order it here (struct, array, map). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Comparator<Object> of(DataType type) {
    if (type instanceof DecimalType) {
      return (a, b) -> ((Comparable) a).compareTo(b);
    }
    if (!(type instanceof PrimitiveType p)) {
      return null;
    }
    return switch (p) {
      case STRING -> (a, b) -> compareCodePoints((String) a, (String) b);
      case BINARY -> (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      case DOUBLE, FLOAT -> (a, b) -> compareFloating(((Number) a).doubleValue(), ((Number) b).doubleValue());
      default -> (a, b) -> ((Comparable) a).compareTo(b);
    };
  }

  private static int compareFloating(double a, double b) {
    return a == b ? 0 : Double.compare(a, b);
  }

  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }
}
