package dev.sluice.gold.internal;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The running value of one measure over one group, with Spark's result types: count is long; sum of
 * integers is long, of floats double, of decimal(p,s) decimal(p+10,s); avg is double, or decimal(p+4,s+4)
 * for decimals; min and max keep the input type. Nulls are ignored; a sum, avg, min or max of no
 * non-null value is null.
 */
interface Accumulator {
  void add(Object value);

  Object result();

  /** The result type of {@code function} over {@code input} (null for {@code count(*)}). */
  static DataType resultType(Measure.Function function, DataType input, String measure) {
    return switch (function) {
      case COUNT -> PrimitiveType.LONG;
      case MIN, MAX -> {
        if (input instanceof PrimitiveType p && !p.isOrderable()) {
          throw GoldErrors.notOrderable(measure, input);
        }
        yield input;
      }
      case SUM -> switch (numericKind(input, measure)) {
        case INTEGRAL -> PrimitiveType.LONG;
        case FRACTIONAL -> PrimitiveType.DOUBLE;
        case DECIMAL -> bounded(((DecimalType) input).precision() + 10, ((DecimalType) input).scale());
      };
      case AVG -> numericKind(input, measure) == Kind.DECIMAL
          ? bounded(((DecimalType) input).precision() + 4, ((DecimalType) input).scale() + 4)
          : PrimitiveType.DOUBLE;
    };
  }

  static Accumulator create(Measure.Function function, DataType input, DataType result) {
    return switch (function) {
      case COUNT -> new Count();
      case MIN -> new Extreme(-1);
      case MAX -> new Extreme(1);
      case SUM -> new Sum(numericKind(input, ""), result);
      case AVG -> new Avg(numericKind(input, ""), result);
    };
  }

  private static DecimalType bounded(int precision, int scale) {
    return DecimalType.of(Math.min(precision, 38), Math.min(scale, 38));
  }

  /** How a numeric input adds up. */
  enum Kind { INTEGRAL, FRACTIONAL, DECIMAL }

  private static Kind numericKind(DataType type, String measure) {
    if (type instanceof DecimalType) {
      return Kind.DECIMAL;
    }
    if (type == PrimitiveType.BYTE || type == PrimitiveType.SHORT || type == PrimitiveType.INTEGER
        || type == PrimitiveType.LONG) {
      return Kind.INTEGRAL;
    }
    if (type == PrimitiveType.FLOAT || type == PrimitiveType.DOUBLE) {
      return Kind.FRACTIONAL;
    }
    throw GoldErrors.notNumeric(measure, type);
  }

  /** count(*) counts rows (the value passed is non-null), count(expr) non-null values. */
  final class Count implements Accumulator {
    private long n;

    @Override
    public void add(Object value) {
      if (value != null) {
        n++;
      }
    }

    @Override
    public Object result() {
      return n;
    }
  }

  /** min (sign -1) or max (sign 1). */
  final class Extreme implements Accumulator {
    private final int sign;
    private Object best;

    Extreme(int sign) {
      this.sign = sign;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void add(Object value) {
      if (value != null && (best == null || Integer.signum(((Comparable) value).compareTo(best)) == sign)) {
        best = value;
      }
    }

    @Override
    public Object result() {
      return best;
    }
  }

  /** sum, wrapping on long overflow as Spark's non-ANSI mode does. */
  final class Sum implements Accumulator {
    private final Kind kind;
    private final DataType type;
    private long longSum;
    private double doubleSum;
    private BigDecimal decimalSum = BigDecimal.ZERO;
    private boolean any;

    Sum(Kind kind, DataType type) {
      this.kind = kind;
      this.type = type;
    }

    @Override
    public void add(Object value) {
      if (value == null) {
        return;
      }
      any = true;
      switch (kind) {
        case INTEGRAL -> longSum += ((Number) value).longValue();
        case FRACTIONAL -> doubleSum += ((Number) value).doubleValue();
        case DECIMAL -> decimalSum = decimalSum.add((BigDecimal) value);
      }
    }

    @Override
    public Object result() {
      if (!any) {
        return null;
      }
      return switch (kind) {
        case INTEGRAL -> longSum;
        case FRACTIONAL -> doubleSum;
        case DECIMAL -> decimalSum.setScale(((DecimalType) type).scale(), RoundingMode.HALF_UP);
      };
    }
  }

  /** avg: the sum divided by the count of non-null values. */
  final class Avg implements Accumulator {
    private final Kind kind;
    private final DataType type;
    private double doubleSum;
    private BigDecimal decimalSum = BigDecimal.ZERO;
    private long n;

    Avg(Kind kind, DataType type) {
      this.kind = kind;
      this.type = type;
    }

    @Override
    public void add(Object value) {
      if (value == null) {
        return;
      }
      n++;
      if (kind == Kind.DECIMAL) {
        decimalSum = decimalSum.add((BigDecimal) value);
      } else {
        doubleSum += ((Number) value).doubleValue();
      }
    }

    @Override
    public Object result() {
      if (n == 0) {
        return null;
      }
      return kind == Kind.DECIMAL
          ? decimalSum.divide(BigDecimal.valueOf(n), ((DecimalType) type).scale(), RoundingMode.HALF_UP)
          : doubleSum / n;
    }
  }
}
