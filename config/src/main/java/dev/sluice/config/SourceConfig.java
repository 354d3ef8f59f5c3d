package dev.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a pipeline reads: files at {@code path} or Kafka topics ({@link #kafka()}; bronze), or a Delta table
 * (silver, gold).
 *
 * <p>When the config names an upstream {@code pipeline}, {@link #table()} holds that pipeline's sink table, so
 * readers need not look it up. {@link #options()} keep the config's order and include the defaults' engine
 * options ({@code maxFilesPerTrigger}) that the pipeline did not set itself.
 */
public record SourceConfig(
    SourceFormat format,
    Optional<String> path,
    Optional<String> pipeline,
    Optional<String> table,
    Map<String, String> options,
    List<ColumnSpec> schema,
    SchemaEvolution schemaEvolution,
    Optional<KafkaSourceConfig> kafka) {
  public SourceConfig {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(table, "table");
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    schema = List.copyOf(schema);
    Objects.requireNonNull(schemaEvolution, "schemaEvolution");
    Objects.requireNonNull(kafka, "kafka");
  }

  /** A source that does not read Kafka. */
  public SourceConfig(SourceFormat format, Optional<String> path, Optional<String> pipeline, Optional<String> table,
      Map<String, String> options, List<ColumnSpec> schema, SchemaEvolution schemaEvolution) {
    this(format, path, pipeline, table, options, schema, schemaEvolution, Optional.empty());
  }
}
