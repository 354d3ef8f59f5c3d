package dev.sluice.ingestion.state;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a batch did to a state store, for progress ({@code stateOperators}): rows now, rows
 * written and removed in this batch, estimated memory, time to commit, and the provider's own
 * counters ({@code customMetrics}, named as Spark's providers name them, e.g. {@code rocksdbGetCount}).
 */
public record StateStoreMetrics(long numRowsTotal, long numRowsUpdated, long numRowsRemoved, long memoryUsedBytes,
    long commitTimeMs, Map<String, Long> customMetrics) {
  public StateStoreMetrics {
    customMetrics = customMetrics == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(customMetrics));
  }

  /** Without custom metrics. */
  public StateStoreMetrics(long numRowsTotal, long numRowsUpdated, long numRowsRemoved, long memoryUsedBytes,
      long commitTimeMs) {
    this(numRowsTotal, numRowsUpdated, numRowsRemoved, memoryUsedBytes, commitTimeMs, Map.of());
  }
}
