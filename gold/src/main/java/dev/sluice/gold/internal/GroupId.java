package dev.sluice.gold.internal;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * A group's identity while a batch is aggregated: its window start (epoch microseconds) and group-by
 * values, hashed once. Two ids are equal exactly when their {@code _group_key} texts ({@link GroupKeys})
 * are: values are compared by {@code equals} (arrays by content) after decimals are stripped of trailing
 * zeros, as the key text writes them. So a batch finds its groups by id and renders each group's key
 * text once, instead of once per row.
 */
final class GroupId {
  private boolean windowed;
  private long windowStart;
  private Object[] values;
  private int hash;

  GroupId(boolean windowed, long windowStart, Object[] values) {
    set(windowed, windowStart, values);
  }

  /**
   * Makes this id another group's, for a lookup that makes no id per row ({@link GroupAggregation#probe}): only a
   * probe is ever changed, never an id a map holds as its key (which {@link #copy} makes).
   */
  GroupId set(boolean windowed, long windowStart, Object[] values) {
    this.windowed = windowed;
    this.windowStart = windowStart;
    this.values = values;
    this.hash = 31 * Long.hashCode(windowStart) + Arrays.deepHashCode(values);
    return this;
  }

  /** An id equal to this one that keeps its values when this one is set again. */
  GroupId copy() {
    return new GroupId(windowed, windowStart, values.clone());
  }

  /** The value as the key text compares it: 1.50 and 1.5 are one group there. */
  static Object canonical(Object v) {
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    return v;
  }

  /** The group-by values (a probe's array, which {@link GroupAggregation#probe} fills). */
  Object[] values() {
    return values;
  }

  boolean windowed() {
    return windowed;
  }

  long windowStart() {
    return windowStart;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupId other && hash == other.hash && windowStart == other.windowStart
        && windowed == other.windowed && Arrays.deepEquals(values, other.values);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return (windowed ? windowStart + ":" : "") + Arrays.deepToString(values);
  }
}
