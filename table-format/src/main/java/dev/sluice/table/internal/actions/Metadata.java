package dev.sluice.table.internal.actions;

import dev.sluice.table.types.StructType;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@code metaData}: the table's id, schema (as {@code schemaString} JSON), partitioning and properties. */
public record Metadata(
    String id,
    String name,
    String description,
    String formatProvider,
    Map<String, String> formatOptions,
    String schemaString,
    List<String> partitionColumns,
    Map<String, String> configuration,
    Long createdTime)
    implements Action {
  public Metadata {
    Objects.requireNonNull(id, "metaData.id");
    formatProvider = formatProvider == null ? "parquet" : formatProvider;
    formatOptions = formatOptions == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(formatOptions));
    partitionColumns = partitionColumns == null ? List.of() : List.copyOf(partitionColumns);
    configuration = configuration == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(configuration));
  }

  /** The parsed schema. */
  public StructType schema() {
    return StructType.fromJson(schemaString);
  }
}
