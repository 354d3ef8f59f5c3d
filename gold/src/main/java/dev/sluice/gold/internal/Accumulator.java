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

  /**
   * An accumulator that can take a value back (count, sum, avg): its whole state is the number of
   * non-null values and their sum, so update mode keeps it per group and follows the change feed.
   * Sums are exact for integers (long, wrapping like Spark's) and decimals (BigDecimal); float sums are
   * doubles, so adding and taking back values accumulates rounding. When the count returns to 0 the sum
   * restarts at exactly 0.
   */
  interface Invertible extends Accumulator {
    /** Adds ({@code sign} 1) or takes back ({@code sign} -1) a value; nulls change nothing. */
    void add(Object value, int sign);

    @Override
    default void add(Object value) {
      add(value, 1);
    }

    /** The number of non-null values now. */
    long count();

    /** The sum now (Long, Double or BigDecimal), or null for count. */
    Object sum();

    /** Replaces the state with one read back from {@link #count()} and {@link #sum()}. */
    void restore(long count, Object sum);
  }

  /** The type of {@link Invertible#sum()} kept in state for {@code function} over {@code input}, or null. */
  static DataType sumType(Measure.Function function, DataType input) {
    if (function != Measure.Function.SUM && function != Measure.Function.AVG) {
      return null;
    }
    return switch (numericKind(input, "")) {
      case INTEGRAL -> PrimitiveType.LONG;
      case FRACTIONAL -> PrimitiveType.DOUBLE;
      case DECIMAL -> DecimalType.of(38, ((DecimalType) input).scale());
    };
  }

  static boolean invertible(Measure.Function function) {
    return function != Measure.Function.MIN && function != Measure.Function.MAX;
  }

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
      case SUM -> new Sum(numericKind(input, ""), result, inputScale(input));
      case AVG -> new Avg(numericKind(input, ""), result, inputScale(input));
    };
  }

  private static int inputScale(DataType input) {
    return input instanceof DecimalType d ? d.scale() : 0;
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
  final class Count implements Invertible {
    private long n;

    @Override
    public void add(Object value, int sign) {
      if (value != null) {
        n += sign;
      }
    }

    @Override
    public Object result() {
      return n;
    }

    @Override
    public long count() {
      return n;
    }

    @Override
    public Object sum() {
      return null;
    }

    @Override
    public void restore(long count, Object sum) {
      n = count;
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

  /**
   * The non-null count and the sum of sum and avg: long for integers (wrapping on overflow as Spark's
   * non-ANSI mode does), double for floats, and for decimals the unscaled long at the input's scale while
   * every value has that scale and the sum fits, else (exactly, from then on) a BigDecimal: adding longs
   * costs no BigDecimal per row.
   */
  abstract class Summing implements Invertible {
    /** Decimals of at most 18 digits have an unscaled value that fits a long. */
    private static final int LONG_DIGITS = 18;

    final Kind kind;
    final DataType type;
    final int scale;
    long n;
    long longSum;
    double doubleSum;
    /** The decimal sum once it left the long ({@link #wide}). */
    BigDecimal decimalSum = BigDecimal.ZERO;
    /** The decimal sum as an unscaled long at {@link #scale}, while not {@link #wide}. */
    long unscaledSum;
    boolean wide;

    Summing(Kind kind, DataType type, int scale) {
      this.kind = kind;
      this.type = type;
      this.scale = scale;
    }

    private void addDecimal(BigDecimal value, int sign) {
      if (!wide && value.scale() == scale && value.precision() <= LONG_DIGITS) {
        long unscaled = value.scaleByPowerOfTen(scale).longValue();
        long r = unscaledSum + sign * unscaled;
        // Overflow iff both operands have the same sign and the result's sign differs (Hacker's Delight 2-12).
        if (((unscaledSum ^ r) & ((sign * unscaled) ^ r)) >= 0) {
          unscaledSum = r;
          return;
        }
      }
      if (!wide) {
        decimalSum = BigDecimal.valueOf(unscaledSum, scale);
        wide = true;
      }
      decimalSum = sign > 0 ? decimalSum.add(value) : decimalSum.subtract(value);
    }

    /** The decimal sum now (its scale is the input's once a value was added; 0 for the empty sum). */
    BigDecimal decimal() {
      if (wide) {
        return decimalSum;
      }
      return n == 0 && unscaledSum == 0 ? BigDecimal.ZERO : BigDecimal.valueOf(unscaledSum, scale);
    }

    @Override
    public void add(Object value, int sign) {
      if (value == null) {
        return;
      }
      n += sign;
      if (n == 0) {
        // No value left: restart exactly, so that float rounding of taken-back values does not linger.
        longSum = 0;
        doubleSum = 0;
        decimalSum = BigDecimal.ZERO;
        unscaledSum = 0;
        wide = false;
        return;
      }
      switch (kind) {
        case INTEGRAL -> longSum += sign * ((Number) value).longValue();
        case FRACTIONAL -> doubleSum += sign * ((Number) value).doubleValue();
        case DECIMAL -> addDecimal((BigDecimal) value, sign);
      }
    }

    @Override
    public long count() {
      return n;
    }

    @Override
    public Object sum() {
      return switch (kind) {
        case INTEGRAL -> longSum;
        case FRACTIONAL -> doubleSum;
        case DECIMAL -> decimal();
      };
    }

    @Override
    public void restore(long count, Object sum) {
      n = count;
      switch (kind) {
        case INTEGRAL -> longSum = (Long) sum;
        case FRACTIONAL -> doubleSum = (Double) sum;
        case DECIMAL -> restoreDecimal((BigDecimal) sum);
      }
    }

    private void restoreDecimal(BigDecimal sum) {
      decimalSum = BigDecimal.ZERO;
      unscaledSum = 0;
      wide = false;
      if (sum.signum() != 0) {
        addDecimal(sum, 1);
      }
    }
  }

  /** sum: null when there is no non-null value. */
  final class Sum extends Summing {
    Sum(Kind kind, DataType type, int scale) {
      super(kind, type, scale);
    }

    @Override
    public Object result() {
      if (n == 0) {
        return null;
      }
      return switch (kind) {
        case INTEGRAL -> longSum;
        case FRACTIONAL -> doubleSum;
        case DECIMAL -> decimal().setScale(((DecimalType) type).scale(), RoundingMode.HALF_UP);
      };
    }
  }

  /**
   * avg: the sum divided by the count of non-null values. Integers are summed exactly as a long and
   * divided as doubles (Spark sums them as doubles: the same result while the sum stays below 2^53).
   */
  final class Avg extends Summing {
    Avg(Kind kind, DataType type, int scale) {
      super(kind, type, scale);
    }

    @Override
    public Object result() {
      if (n == 0) {
        return null;
      }
      return switch (kind) {
        case INTEGRAL -> (double) longSum / n;
        case FRACTIONAL -> doubleSum / n;
        case DECIMAL -> decimal().divide(BigDecimal.valueOf(n), ((DecimalType) type).scale(), RoundingMode.HALF_UP);
      };
    }
  }
}
