package dev.sluice.ingestion.sink;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.OutputMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a plugin sink is created with: its options (lower-case keys, {@code path} among them when given), the
 * output location resolved from {@code path}, the query's name (if any), output mode and partition columns.
 */
public record SinkContext(
    Map<String, String> options,
    Optional<Location> path,
    Optional<String> queryName,
    OutputMode outputMode,
    List<String> partitionBy) {
  public SinkContext {
    options = Map.copyOf(options);
    partitionBy = List.copyOf(partitionBy);
  }

  /** An option's value (keys are lower case), or empty. */
  public Optional<String> option(String key) {
    return Optional.ofNullable(options.get(key.toLowerCase(java.util.Locale.ROOT)));
  }
}
