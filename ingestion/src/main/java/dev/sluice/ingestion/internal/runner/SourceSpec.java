package dev.sluice.ingestion.internal.runner;

import dev.sluice.table.types.StructType;
import java.util.Map;
import java.util.Optional;

/** What the user asked to read: a format, its options, a declared schema and a path (all as given). */
public record SourceSpec(String format, Map<String, String> options, Optional<StructType> schema, Optional<String> path) {
  public SourceSpec {
    options = Map.copyOf(options);
  }
}
