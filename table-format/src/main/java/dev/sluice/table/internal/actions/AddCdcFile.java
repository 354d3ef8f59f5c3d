package dev.sluice.table.internal.actions;

import java.util.Map;
import java.util.Objects;

/** {@code cdc}: a change data file under {@code _change_data/} with a {@code _change_type} column. */
public record AddCdcFile(String path, Map<String, String> partitionValues, long size, Map<String, String> tags)
    implements Action {
  public AddCdcFile {
    Objects.requireNonNull(path, "cdc.path");
    partitionValues = partitionValues == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partitionValues));
    tags = tags == null ? null : Map.copyOf(tags);
  }
}
