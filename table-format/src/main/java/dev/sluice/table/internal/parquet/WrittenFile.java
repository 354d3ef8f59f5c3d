package dev.sluice.table.internal.parquet;

import java.util.Objects;

/**
 * A data file that {@link ParquetDataWriter} finished: its object key, exact size in bytes, row count
 * and Delta {@code add.stats} JSON.
 */
public record WrittenFile(String key, long size, long numRecords, String stats) {
  public WrittenFile {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(stats, "stats");
  }
}
