package dev.sluice.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Delta table a pipeline writes, relative to the warehouse, with its partition columns, MERGE rule and the
 * table properties it is created with ({@code properties: {delta.enableDeletionVectors: "true"}}).
 */
public record SinkConfig(String table, List<String> partitionBy, Optional<MergeConfig> merge,
    Map<String, String> properties) {
  public SinkConfig {
    Objects.requireNonNull(table, "table");
    partitionBy = List.copyOf(partitionBy);
    Objects.requireNonNull(merge, "merge");
    properties = Map.copyOf(properties);
  }

  public SinkConfig(String table, List<String> partitionBy, Optional<MergeConfig> merge) {
    this(table, partitionBy, merge, Map.of());
  }
}
