package dev.sluice.table.internal.partition;

import java.util.HashMap;
import java.util.Map;

/**
 * The per-file statistics that pruning uses: row count, and per top-level column (keyed by the name
 * as the schema spells it) the minimum, maximum and null count. Any of them may be unknown (null).
 *
 * <p>Bounds are typed by the column's Java mapping (see {@link dev.sluice.table.types.DataType}) and
 * must be true bounds of the non-null values: a truncated string max must have been rounded up (as
 * Spark does), a float/double max must count NaN as the largest value (or be left out). Timestamp
 * bounds may be truncated to milliseconds, as Delta writes them: pruning widens the max by 1 ms.
 */
public interface ColumnStats {
  /** Statistics that know nothing: every file might match. */
  ColumnStats NONE = of(null, Map.of(), Map.of(), Map.of());

  /** Rows in the file, or null when unknown. */
  Long numRecords();

  /** Smallest non-null value of {@code column}, or null when unknown (or all values are null). */
  Object min(String column);

  /** Largest non-null value of {@code column}, or null when unknown (or all values are null). */
  Object max(String column);

  /** Number of null values of {@code column}, or null when unknown. */
  Long nullCount(String column);

  /** Statistics from maps keyed by column name; a missing key means unknown. */
  static ColumnStats of(Long numRecords, Map<String, ?> min, Map<String, ?> max, Map<String, Long> nullCount) {
    return new MapColumnStats(numRecords, new HashMap<>(min), new HashMap<>(max), new HashMap<>(nullCount));
  }
}
