package dev.sluice.ingestion.internal.plan.aggregate;

import java.util.Locale;

/** The aggregate functions a streaming aggregation computes, by their Spark SQL names. */
public enum AggregateFunction {
  COUNT,
  SUM,
  AVG,
  MIN,
  MAX,
  APPROX_COUNT_DISTINCT;

  /** The SQL name, e.g. {@code approx_count_distinct}. */
  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The function named {@code name} ignoring case; {@code mean} is {@code avg} as in Spark.
   *
   * @throws IllegalArgumentException naming the function and the known ones
   */
  public static AggregateFunction of(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    if (n.equals("mean")) {
      return AVG;
    }
    for (AggregateFunction f : values()) {
      if (f.sqlName().equals(n)) {
        return f;
      }
    }
    throw new IllegalArgumentException("Unknown aggregate function '" + name + "'; streaming aggregations support"
        + " count, sum, avg, min, max and approx_count_distinct");
  }
}
