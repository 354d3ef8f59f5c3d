package dev.sluice.table.internal.partition;

import java.util.Map;

/** {@link ColumnStats} backed by maps. */
record MapColumnStats(Long numRecords, Map<String, ?> mins, Map<String, ?> maxes, Map<String, Long> nullCounts)
    implements ColumnStats {

  @Override
  public Object min(String column) {
    return mins.get(column);
  }

  @Override
  public Object max(String column) {
    return maxes.get(column);
  }

  @Override
  public Long nullCount(String column) {
    return nullCounts.get(column);
  }
}
