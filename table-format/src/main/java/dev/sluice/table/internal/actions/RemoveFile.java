package dev.sluice.table.internal.actions;

import java.util.Map;
import java.util.Objects;

/** {@code remove}: a tombstone for a data file that is no longer part of the table (kept for VACUUM). */
public record RemoveFile(
    String path,
    Long deletionTimestamp,
    boolean dataChange,
    Boolean extendedFileMetadata,
    Map<String, String> partitionValues,
    Long size,
    String stats,
    Map<String, String> tags,
    String deletionVectorJson)
    implements Action {
  public RemoveFile {
    Objects.requireNonNull(path, "remove.path");
    partitionValues = partitionValues == null ? null : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partitionValues));
    tags = tags == null ? null : Map.copyOf(tags);
  }
}
