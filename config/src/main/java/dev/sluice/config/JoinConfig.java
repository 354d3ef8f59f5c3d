package dev.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A stream-static join of a gold pipeline with a Delta table ({@code table} or an upstream {@code pipeline},
 * whose sink table is then in {@link #table()}) or with files ({@code path}, {@code format}, optional schema),
 * on columns of the same name on both sides.
 */
public record JoinConfig(
    Optional<String> table,
    Optional<String> pipeline,
    Optional<String> path,
    SourceFormat format,
    Map<String, String> options,
    List<ColumnSpec> schema,
    List<String> on,
    JoinType type,
    JoinRefresh refresh) {
  public JoinConfig {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(format, "format");
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    schema = List.copyOf(schema);
    on = List.copyOf(on);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(refresh, "refresh");
  }
}
