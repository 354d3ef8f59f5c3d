package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How {@code sum} and {@code avg} accumulate a numeric column, with Spark's non-ANSI rules: integers in a
 * long that wraps on overflow, floating point in a double, decimals exactly in a wider decimal that
 * becomes null when it overflows.
 */
enum NumericKind {
  LONG,
  DOUBLE,
  DECIMAL;

  /** The kind for a column type, or null when the column is not numeric. */
  static NumericKind of(DataType type) {
    if (type instanceof DecimalType) {
      return DECIMAL;
    }
    if (type == PrimitiveType.BYTE || type == PrimitiveType.SHORT || type == PrimitiveType.INTEGER
        || type == PrimitiveType.LONG) {
      return LONG;
    }
    if (type == PrimitiveType.FLOAT || type == PrimitiveType.DOUBLE) {
      return DOUBLE;
    }
    return null;
  }

  /** Spark's {@code DecimalType.bounded}: precision and scale capped at 38. */
  static DecimalType bounded(int precision, int scale) {
    return DecimalType.of(Math.min(precision, 38), Math.min(scale, 38));
  }

  /** {@code sum + value} in {@code type}, or null when the sum no longer fits. */
  static BigDecimal addDecimal(BigDecimal sum, BigDecimal value, DecimalType type) {
    BigDecimal v = value.setScale(type.scale(), RoundingMode.HALF_UP);
    return fit(sum == null ? v : sum.add(v), type);
  }

  /** {@code value} if it fits {@code type}'s precision, else null (Spark's non-ANSI overflow). */
  static BigDecimal fit(BigDecimal value, DecimalType type) {
    return value.precision() - value.scale() > type.precision() - type.scale() ? null : value;
  }
}
