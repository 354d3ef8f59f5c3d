package dev.sluice.ingestion.expr.internal;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.util.Optional;

/** Type rules: numeric widening (byte < short < int < long < decimal < float < double) and common types. */
final class Types {
  static final int MAX_PRECISION = 38;

  private Types() {}

  static boolean isNumeric(DataType t) {
    return t instanceof DecimalType || t == PrimitiveType.BYTE || t == PrimitiveType.SHORT
        || t == PrimitiveType.INTEGER || t == PrimitiveType.LONG || t == PrimitiveType.FLOAT
        || t == PrimitiveType.DOUBLE;
  }

  static boolean isIntegral(DataType t) {
    return t == PrimitiveType.BYTE || t == PrimitiveType.SHORT || t == PrimitiveType.INTEGER
        || t == PrimitiveType.LONG;
  }

  static boolean isFractional(DataType t) {
    return t == PrimitiveType.FLOAT || t == PrimitiveType.DOUBLE;
  }

  /** The decimal that holds every value of an integral type, as Spark sizes them. */
  static DecimalType asDecimal(DataType t) {
    if (t instanceof DecimalType d) {
      return d;
    }
    return switch ((PrimitiveType) t) {
      case BYTE -> DecimalType.of(3, 0);
      case SHORT -> DecimalType.of(5, 0);
      case INTEGER -> DecimalType.of(10, 0);
      default -> DecimalType.of(20, 0);
    };
  }

  /** The wider of two numeric types; two decimals widen to one holding both. */
  static DataType widerNumeric(DataType a, DataType b) {
    if (a.equals(b)) {
      return a;
    }
    if (a == PrimitiveType.DOUBLE || b == PrimitiveType.DOUBLE) {
      return PrimitiveType.DOUBLE;
    }
    if (a == PrimitiveType.FLOAT || b == PrimitiveType.FLOAT) {
      // Spark widens float with decimal to double; float with integers stays float.
      return a instanceof DecimalType || b instanceof DecimalType ? PrimitiveType.DOUBLE : PrimitiveType.FLOAT;
    }
    if (a instanceof DecimalType || b instanceof DecimalType) {
      DecimalType x = asDecimal(a);
      DecimalType y = asDecimal(b);
      int scale = Math.max(x.scale(), y.scale());
      int integral = Math.max(x.precision() - x.scale(), y.precision() - y.scale());
      return decimal(integral + scale, scale);
    }
    return rank(a) >= rank(b) ? a : b;
  }

  /** A decimal type, with precision capped at 38 by giving up scale first (as Spark does). */
  static DecimalType decimal(int precision, int scale) {
    if (precision <= MAX_PRECISION) {
      return DecimalType.of(Math.max(precision, 1), scale);
    }
    int integral = precision - scale;
    int keptScale = Math.max(Math.min(scale, 6), MAX_PRECISION - integral);
    return DecimalType.of(MAX_PRECISION, Math.max(0, Math.min(keptScale, MAX_PRECISION)));
  }

  private static int rank(DataType t) {
    return switch ((PrimitiveType) t) {
      case BYTE -> 1;
      case SHORT -> 2;
      case INTEGER -> 3;
      default -> 4;
    };
  }

  /**
   * The type two values are brought to when they meet in CASE, COALESCE, IN or a comparison: equal
   * types, wider numbers, timestamp for date with timestamp, string when one side is a string. Empty
   * when the types cannot meet.
   */
  static Optional<DataType> common(DataType a, DataType b) {
    if (a.equals(b)) {
      return Optional.of(a);
    }
    if (isNumeric(a) && isNumeric(b)) {
      return Optional.of(widerNumeric(a, b));
    }
    if (isDateTime(a) && isDateTime(b)) {
      return Optional.of(PrimitiveType.TIMESTAMP);
    }
    if (a == PrimitiveType.STRING && b instanceof PrimitiveType || b == PrimitiveType.STRING && a instanceof PrimitiveType
        || a instanceof DecimalType && b == PrimitiveType.STRING || b instanceof DecimalType && a == PrimitiveType.STRING) {
      return Optional.of(PrimitiveType.STRING);
    }
    return Optional.empty();
  }

  static boolean isDateTime(DataType t) {
    return t == PrimitiveType.DATE || t == PrimitiveType.TIMESTAMP;
  }
}
