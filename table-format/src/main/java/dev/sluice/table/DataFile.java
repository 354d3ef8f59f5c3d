package dev.sluice.table;

import java.util.Map;
import java.util.OptionalLong;

/**
 * One live data file of a snapshot: its object key in the table's store, its path as the log
 * spells it, partition values (Delta's string encoding), size, modification time and record count
 * when the writer recorded stats (the rows left after its deletion vector, if it has one), and the deletion
 * vector's descriptor as the log holds it (null without one).
 */
public record DataFile(
    String key, String logPath, Map<String, String> partitionValues, long size, long modificationTime,
    OptionalLong numRecords, String statsJson, String deletionVectorJson) {
  public DataFile {
    partitionValues = partitionValues == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partitionValues));
  }

  public DataFile(String key, String logPath, Map<String, String> partitionValues, long size, long modificationTime,
      OptionalLong numRecords, String statsJson) {
    this(key, logPath, partitionValues, size, modificationTime, numRecords, statsJson, null);
  }

  /** Whether a deletion vector deletes some of the file's rows (they are left out of its rows). */
  public boolean hasDeletionVector() {
    return deletionVectorJson != null;
  }
}
