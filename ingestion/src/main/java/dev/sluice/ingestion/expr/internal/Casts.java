package dev.sluice.ingestion.expr.internal;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Value conversions with Spark's non-ANSI cast rules: text that does not parse and numbers that do
 * not fit a decimal become null; integral narrowing wraps as in Java. A number cast to a timestamp is
 * epoch seconds (fractions kept to the microsecond); outside years 0001-9999 it is null, where Spark would
 * return a date tens of thousands of years ahead (epoch milliseconds read as seconds).
 */
final class Casts {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private Casts() {}

  /** The conversion of non-null values from {@code from} to {@code to}, or null when there is none. */
  static UnaryOperator<Object> caster(DataType from, DataType to) {
    if (from.equals(to)) {
      return v -> v;
    }
    if (to == PrimitiveType.STRING) {
      return from instanceof PrimitiveType || from instanceof DecimalType ? Casts::toText : null;
    }
    if (from == PrimitiveType.STRING) {
      return fromString(to);
    }
    if (Types.isNumeric(from) && Types.isNumeric(to)) {
      return numeric(to);
    }
    if (from == PrimitiveType.BOOLEAN && Types.isNumeric(to)) {
      UnaryOperator<Object> n = numeric(to);
      return v -> n.apply((Boolean) v ? 1 : 0);
    }
    if (Types.isNumeric(from) && to == PrimitiveType.BOOLEAN) {
      return v -> v instanceof BigDecimal d ? d.signum() != 0 : ((Number) v).doubleValue() != 0;
    }
    if (from == PrimitiveType.DATE && to == PrimitiveType.TIMESTAMP) {
      return v -> DateTimes.toTimestamp((LocalDate) v);
    }
    if (from == PrimitiveType.TIMESTAMP && to == PrimitiveType.DATE) {
      return v -> DateTimes.toDate((Instant) v);
    }
    // Spark reads numbers as seconds since the epoch and the reverse.
    if (Types.isNumeric(from) && to == PrimitiveType.TIMESTAMP) {
      return v -> v instanceof Double x && !Double.isFinite(x) || v instanceof Float f && !Float.isFinite(f)
          ? null : DateTimes.fromEpoch(toBigDecimal(v), 0);
    }
    if (from == PrimitiveType.TIMESTAMP && Types.isNumeric(to)) {
      UnaryOperator<Object> n = numeric(to);
      return v -> n.apply(Math.floorDiv(((Instant) v).getEpochSecond() * 1_000_000 + ((Instant) v).getNano() / 1000, 1_000_000L));
    }
    return null;
  }

  static String toText(Object v) {
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof Instant t) {
      return DateTimes.format(t);
    }
    if (v instanceof byte[] bytes) {
      return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
    return String.valueOf(v);
  }

  private static UnaryOperator<Object> fromString(DataType to) {
    if (Types.isNumeric(to)) {
      UnaryOperator<Object> n = numeric(to);
      return v -> {
        BigDecimal d = parseNumber((String) v);
        if (d == null) {
          return to == PrimitiveType.DOUBLE || to == PrimitiveType.FLOAT ? special((String) v, to) : null;
        }
        if (Types.isIntegral(to) && (d.compareTo(LONG_MIN) < 0 || d.compareTo(LONG_MAX) > 0)) {
          return null;
        }
        Object out = n.apply(Types.isIntegral(to) ? (Object) d.longValue() : d);
        return Types.isIntegral(to) && !fits(d.longValue(), (PrimitiveType) to) ? null : out;
      };
    }
    return switch (to instanceof PrimitiveType p ? p : PrimitiveType.BINARY) {
      case BOOLEAN -> v -> parseBoolean((String) v);
      case DATE -> v -> DateTimes.parseDate((String) v);
      case TIMESTAMP -> v -> DateTimes.parseTimestamp((String) v);
      case BINARY -> to == PrimitiveType.BINARY
          ? v -> ((String) v).getBytes(java.nio.charset.StandardCharsets.UTF_8) : null;
      default -> null;
    };
  }

  private static boolean fits(long v, PrimitiveType t) {
    return switch (t) {
      case BYTE -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
      case SHORT -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
      case INTEGER -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
      default -> true;
    };
  }

  private static Object special(String text, DataType to) {
    double d = switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "nan" -> Double.NaN;
      case "infinity", "inf", "+infinity", "+inf" -> Double.POSITIVE_INFINITY;
      case "-infinity", "-inf" -> Double.NEGATIVE_INFINITY;
      default -> 0;
    };
    if (d == 0) {
      return null;
    }
    return to == PrimitiveType.FLOAT ? (Object) (float) d : (Object) d;
  }

  static BigDecimal parseNumber(String text) {
    try {
      return new BigDecimal(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Boolean parseBoolean(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "t", "true", "y", "yes", "1" -> Boolean.TRUE;
      case "f", "false", "n", "no", "0" -> Boolean.FALSE;
      default -> null;
    };
  }

  /** Conversion of any Java number to the numeric type {@code to}. */
  static UnaryOperator<Object> numeric(DataType to) {
    if (to instanceof DecimalType d) {
      return v -> toDecimal(v, d);
    }
    return switch ((PrimitiveType) to) {
      case BYTE -> v -> (byte) integral(v);
      case SHORT -> v -> (short) integral(v);
      case INTEGER -> v -> (int) integral(v);
      case LONG -> v -> integral(v);
      case FLOAT -> v -> ((Number) v).floatValue();
      case DOUBLE -> v -> ((Number) v).doubleValue();
      default -> throw new IllegalArgumentException("not numeric: " + to);
    };
  }

  private static long integral(Object v) {
    if (v instanceof Double || v instanceof Float) {
      return (long) ((Number) v).doubleValue();
    }
    return ((Number) v).longValue();
  }

  /** {@code v} rounded half-up to the decimal's scale; null when it does not fit its precision. */
  static BigDecimal toDecimal(Object v, DecimalType type) {
    BigDecimal d;
    if (v instanceof Double x && (x.isNaN() || x.isInfinite()) || v instanceof Float f && (f.isNaN() || f.isInfinite())) {
      return null;
    }
    d = toBigDecimal(v).setScale(type.scale(), RoundingMode.HALF_UP);
    return d.precision() - d.scale() > type.precision() - type.scale() && d.signum() != 0 ? null : d;
  }

  static BigDecimal toBigDecimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Double || v instanceof Float) {
      return new BigDecimal(v.toString());
    }
    if (v instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    return BigDecimal.valueOf(((Number) v).longValue());
  }
}
