package dev.sluice.ingestion.internal.plan.aggregate;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One aggregate of a streaming aggregation: a function, its input column ({@code null} for
 * {@code count(*)}), an optional output alias and, for {@code approx_count_distinct}, the relative
 * standard deviation (Spark's default 0.05).
 *
 * <p>Default output names follow Spark: {@code count} for {@code count(*)} (as
 * {@code groupBy(..).count()} names it), {@code count(user)}, {@code sum(amount)}, {@code avg(amount)},
 * {@code min(amount)}, {@code max(amount)}, {@code approx_count_distinct(user)}.
 */
public record AggregateSpec(AggregateFunction function, String column, String alias, double relativeSd) {
  /** Spark's default relative standard deviation of {@code approx_count_distinct}. */
  public static final double DEFAULT_RSD = 0.05d;

  private static final Pattern CALL = Pattern.compile(
      "(?is)^\\s*([A-Za-z_]+)\\s*\\(\\s*(\\*|1|`[^`]+`|[A-Za-z_][A-Za-z0-9_.]*)\\s*(?:,\\s*([0-9.eE+-]+)\\s*)?\\)"
          + "\\s*(?:(?:AS\\s+)?(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*))?\\s*$");

  public AggregateSpec {
    Objects.requireNonNull(function, "function");
    if (column == null && function != AggregateFunction.COUNT) {
      throw new IllegalArgumentException(function.sqlName() + "(*) is not an aggregate: only count takes *;"
          + " name the column, e.g. " + function.sqlName() + "(amount)");
    }
    if (function == AggregateFunction.APPROX_COUNT_DISTINCT) {
      int p = HyperLogLog.precision(relativeSd);
      if (!(relativeSd > 0) || p < HyperLogLog.MIN_P || p > HyperLogLog.MAX_P) {
        throw new IllegalArgumentException("approx_count_distinct(" + column + ", " + relativeSd + "): the relative"
            + " standard deviation must be between 0.003 and 0.39 (it sets 2^4 to 2^18 registers); use e.g. 0.05");
      }
    }
  }

  public static AggregateSpec count() {
    return new AggregateSpec(AggregateFunction.COUNT, null, null, 0);
  }

  public static AggregateSpec count(String column) {
    return of(AggregateFunction.COUNT, column);
  }

  public static AggregateSpec sum(String column) {
    return of(AggregateFunction.SUM, column);
  }

  public static AggregateSpec avg(String column) {
    return of(AggregateFunction.AVG, column);
  }

  public static AggregateSpec min(String column) {
    return of(AggregateFunction.MIN, column);
  }

  public static AggregateSpec max(String column) {
    return of(AggregateFunction.MAX, column);
  }

  public static AggregateSpec approxCountDistinct(String column) {
    return approxCountDistinct(column, DEFAULT_RSD);
  }

  public static AggregateSpec approxCountDistinct(String column, double relativeSd) {
    return new AggregateSpec(AggregateFunction.APPROX_COUNT_DISTINCT, column, null, relativeSd);
  }

  public static AggregateSpec of(AggregateFunction function, String column) {
    double rsd = function == AggregateFunction.APPROX_COUNT_DISTINCT ? DEFAULT_RSD : 0;
    return new AggregateSpec(function, column, null, rsd);
  }

  /**
   * Reads {@code sum(amount)}, {@code count(*) AS n}, {@code approx_count_distinct(user, 0.01) users}.
   *
   * @throws IllegalArgumentException naming the text and the accepted form
   */
  public static AggregateSpec parse(String text) {
    Matcher m = CALL.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("Cannot read the aggregate '" + text + "': write function(column) with an"
          + " optional alias, e.g. 'count(*)', 'sum(amount) AS total', 'approx_count_distinct(user, 0.01)'");
    }
    AggregateFunction f = AggregateFunction.of(m.group(1));
    String arg = m.group(2);
    String column = arg.equals("*") || arg.equals("1") ? null : unquote(arg);
    if (m.group(3) != null && f != AggregateFunction.APPROX_COUNT_DISTINCT) {
      throw new IllegalArgumentException("Cannot read the aggregate '" + text + "': only approx_count_distinct takes"
          + " a second argument (the relative standard deviation)");
    }
    double rsd = m.group(3) != null ? parseRsd(m.group(3), text) : f == AggregateFunction.APPROX_COUNT_DISTINCT
        ? DEFAULT_RSD : 0;
    String alias = m.group(4) == null ? null : unquote(m.group(4));
    return new AggregateSpec(f, column, alias, rsd);
  }

  private static double parseRsd(String value, String text) {
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Cannot read the aggregate '" + text + "': '" + value + "' is not a number;"
          + " give the relative standard deviation like 0.05");
    }
  }

  private static String unquote(String name) {
    return name.startsWith("`") ? name.substring(1, name.length() - 1) : name;
  }

  /** The same aggregate written to column {@code name}. */
  public AggregateSpec as(String name) {
    return new AggregateSpec(function, column, name, relativeSd);
  }

  /** The output column name: the alias, or Spark's default name. */
  public String name() {
    if (alias != null) {
      return alias;
    }
    return column == null ? "count" : function.sqlName() + "(" + column + ")";
  }

  /** The call as SQL, with Spark's {@code count(1)} for {@code count(*)} and the rsd when it applies. */
  public String sql() {
    if (column == null) {
      return "count(1)";
    }
    String rsd = function == AggregateFunction.APPROX_COUNT_DISTINCT ? ", " + relativeSd : "";
    return function.sqlName() + "(" + column + rsd + ")";
  }
}
