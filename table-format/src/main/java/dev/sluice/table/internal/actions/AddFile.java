package dev.sluice.table.internal.actions;

import java.util.Map;
import java.util.Objects;

/**
 * {@code add}: a data file that is part of the table. {@code path} is as in the log: relative to the
 * table root (URI-encoded) or an absolute URI. {@code stats} is the JSON string of per-file statistics.
 * A {@code deletionVector} is kept as its JSON (see {@code internal.dv.DeletionVectorDescriptor}): the rows it
 * names are deleted, and it is part of the file's identity in log replay.
 */
public record AddFile(
    String path,
    Map<String, String> partitionValues,
    long size,
    long modificationTime,
    boolean dataChange,
    String stats,
    Map<String, String> tags,
    String deletionVectorJson)
    implements Action {
  public AddFile {
    Objects.requireNonNull(path, "add.path");
    partitionValues = partitionValues == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partitionValues));
    tags = tags == null ? null : Map.copyOf(tags);
  }

  public static AddFile of(String path, Map<String, String> partitionValues, long size, long modificationTime, String stats) {
    return new AddFile(path, partitionValues, size, modificationTime, true, stats, null, null);
  }

  /** The tombstone that removes this file at {@code deletionTimestamp}. */
  public RemoveFile toRemove(long deletionTimestamp, boolean dataChange) {
    return new RemoveFile(path, deletionTimestamp, dataChange, true, partitionValues, size, stats, tags,
        deletionVectorJson);
  }

  public AddFile withDataChange(boolean value) {
    return new AddFile(path, partitionValues, size, modificationTime, value, stats, tags, deletionVectorJson);
  }
}
