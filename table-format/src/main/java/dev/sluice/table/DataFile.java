package dev.sluice.table;

import java.util.Map;
import java.util.OptionalLong;

/**
 * One live data file of a snapshot: its object key in the table's store, its path as the log
 * spells it, partition values (Delta's string encoding), size, modification time and record count
 * when the writer recorded stats.
 */
public record DataFile(
    String key, String logPath, Map<String, String> partitionValues, long size, long modificationTime,
    OptionalLong numRecords, String statsJson) {
  public DataFile {
    partitionValues = partitionValues == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partitionValues));
  }
}
