package dev.sluice.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The Delta table a pipeline writes, relative to the warehouse, with its partition columns and MERGE rule. */
public record SinkConfig(String table, List<String> partitionBy, Optional<MergeConfig> merge) {
  public SinkConfig {
    Objects.requireNonNull(table, "table");
    partitionBy = List.copyOf(partitionBy);
    Objects.requireNonNull(merge, "merge");
  }
}
