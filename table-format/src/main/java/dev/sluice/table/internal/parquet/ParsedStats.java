package dev.sluice.table.internal.parquet;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A data file's {@code add.stats}, typed by the table schema (see {@link FileStats#parse}).
 *
 * <p>Keys are the schema's top-level column names. A leaf column's min/max is its Java value (see
 * {@link dev.sluice.table.types.DataType}) and its null count a {@link Long}; a struct column maps to a
 * nested {@code Map<String, Object>} of the same shape. A column without a usable entry is absent.
 * Timestamp maxima are millisecond-truncated: add 1 ms before using one as an upper bound.
 */
public record ParsedStats(
    OptionalLong numRecords,
    Map<String, Object> minValues,
    Map<String, Object> maxValues,
    Map<String, Object> nullCount) {
  public ParsedStats {
    Objects.requireNonNull(numRecords, "numRecords");
    minValues = Map.copyOf(minValues);
    maxValues = Map.copyOf(maxValues);
    nullCount = Map.copyOf(nullCount);
  }
}
