package dev.sluice.ingestion.internal.sink.files;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import dev.sluice.ingestion.sink.Sink;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Spark's file sink (json, csv, parquet), append only: batch N writes new files named
 * {@code [<partition folders>/]part-<n>-<uuid>.c000<ext>}, then records them in the {@link FileSinkLog} entry N.
 * A batch already in the log is skipped, so a batch re-run after a crash never adds its files twice; files a
 * crashed attempt wrote are not in the log and readers of the log never see them.
 */
final class FileSink implements Sink {
  private final Location folder;
  private final OutputFormat format;
  private final List<String> partitionBy;
  private final long maxRecordsPerFile;
  private final SinkInterceptor interceptor;
  private final String description;
  private final FileSinkLog log;
  private OptionalLong latest;
  private StructType boundSchema;
  private PartitionPaths partitions;

  FileSink(Location folder, OutputFormat format, List<String> partitionBy, long maxRecordsPerFile,
      SinkInterceptor interceptor, String description) {
    this.folder = folder;
    this.format = format;
    this.partitionBy = List.copyOf(partitionBy);
    this.maxRecordsPerFile = maxRecordsPerFile;
    this.interceptor = interceptor;
    this.description = description;
    this.log = new FileSinkLog(folder.store(), folder.key());
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    if (latest == null) {
      latest = log.latestBatchId();
    }
    if (latest.isPresent() && batchId <= latest.getAsLong()) {
      return ALREADY_COMMITTED;
    }
    bind(batch.schema());
    List<FileSinkLog.Entry> written = write(batch);
    interceptor.at(SinkInterceptor.Step.DATA_WRITTEN, batchId);
    try {
      log.add(batchId, written);
    } catch (dev.sluice.table.exceptions.ObjectAlreadyExistsException e) {
      throw new IllegalStateException("Batch " + batchId + " is already in the sink log of " + folder + ": another"
          + " query writes to this folder (a file sink's folder takes one query, as in Spark). Its files of this"
          + " attempt are not output. Fix: give each query its own output folder", e);
    }
    latest = OptionalLong.of(batchId);
    return batch.size();
  }

  private void bind(StructType schema) {
    if (!schema.equals(boundSchema)) {
      PartitionPaths p = PartitionPaths.of(schema, partitionBy);
      format.check(p.dataSchema());
      partitions = p;
      boundSchema = schema;
    }
  }

  /** Writes the batch's rows, one open file per partition folder, rolling at {@code maxRecordsPerFile}. */
  private List<FileSinkLog.Entry> write(Batch batch) {
    String attempt = UUID.randomUUID().toString();
    Map<String, OutputFormat.DataFile> open = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    List<FileSinkLog.Entry> out = new ArrayList<>();
    try {
      for (Row row : batch.rows()) {
        String dir = partitions.folderOf(row);
        OutputFormat.DataFile f = open.get(dir);
        if (f != null && maxRecordsPerFile > 0 && f.numRecords() >= maxRecordsPerFile) {
          f.close();
          open.remove(dir);
          f = null;
        }
        if (f == null) {
          String key = key(dir, keys.size(), attempt);
          keys.add(key);
          f = format.open(folder.store(), key, partitions.dataSchema());
          open.put(dir, f);
        }
        f.write(partitions.dataRow(row));
      }
      for (OutputFormat.DataFile f : open.values()) {
        f.close();
      }
      open.clear();
    } catch (RuntimeException e) {
      open.values().forEach(OutputFormat.DataFile::abort);
      throw e;
    }
    for (String key : keys) {
      ObjectStatus s = folder.store().status(key).orElseThrow(() -> new IllegalStateException("The data file "
          + folder.store().uriOf(key) + " vanished right after it was written: is another process cleaning the"
          + " folder " + folder + "?"));
      out.add(new FileSinkLog.Entry(folder.store().uriOf(key).toString(), s.size(), s.modificationTime()));
    }
    return out;
  }

  private String key(String dir, int index, String attempt) {
    String name = String.format("part-%05d-%s.c000%s", index, attempt, format.extension());
    String base = folder.key().isEmpty() ? "" : folder.key() + "/";
    return base + (dir.isEmpty() ? "" : dir + "/") + name;
  }

  @Override
  public String description() {
    return description;
  }
}
