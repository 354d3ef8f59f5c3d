package dev.sluice.table.internal.write;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.parquet.ParquetDataWriter;
import dev.sluice.table.internal.parquet.DictionaryHints;
import dev.sluice.table.internal.parquet.InsertChangeFile;
import dev.sluice.table.internal.parquet.ParquetWriteOptions;
import dev.sluice.table.internal.parquet.WrittenFile;
import dev.sluice.table.internal.partition.PartitionValues;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.StoragePaths;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Writes rows of a table schema into new Parquet data files: one folder per partition
 * (Hive-style), files rolled at the target size, names unique ({@code part-NNNNN-<uuid>.c000.<codec>.parquet}).
 * Partition columns are not stored in the files, as Spark does; their values go to the log.
 *
 * <p>Not thread-safe. Close with {@link #finish()}, or {@link #abort()} to delete what was written.
 */
public final class TableWriter {
  private final ObjectStore store;
  private final String tablePath;
  private final String folder;
  private final StructType schema;
  private final List<String> partitionColumns;
  private final WriteOptions options;
  private final Clock clock;
  private final int[] partitionIndex;
  private final int[] dataIndex;
  private final StructType dataSchema;
  private final Map<String, Open> open = new LinkedHashMap<>();
  /** The one open file of an unpartitioned table, also in {@link #open}; saves a map lookup per row. */
  private Open unpartitioned;
  private final List<NewFile> done = new ArrayList<>();
  /** The partition folder of each file written (by key), for its change file. */
  private final Map<String, String> partitionOf = new java.util.HashMap<>();
  private final String prefix;
  private final IntSupplier fileNumbers;
  private final DictionaryHints dictionaryHints;

  /**
   * @param folder a sub-folder of the table for the files ("" for data files, {@code _change_data} for CDC files)
   */
  public TableWriter(ObjectStore store, String tablePath, String folder, StructType schema, List<String> partitionColumns,
      WriteOptions options, Clock clock) {
    this(store, tablePath, folder, schema, partitionColumns, options, clock, new AtomicInteger()::getAndIncrement,
        DictionaryHints.none());
  }

  /**
   * Same, numbering files by {@code fileNumbers} ({@code part-NNNNN}): the writers of one write that run in
   * parallel number their files apart ({@link ParallelFileWrite}), and learning which columns to write without a
   * dictionary from {@code dictionaryHints} (those of the table: {@code TableContext#dictionaryHints}).
   */
  public TableWriter(ObjectStore store, String tablePath, String folder, StructType schema, List<String> partitionColumns,
      WriteOptions options, Clock clock, IntSupplier fileNumbers, DictionaryHints dictionaryHints) {
    this.fileNumbers = fileNumbers;
    this.dictionaryHints = dictionaryHints;
    this.store = store;
    this.tablePath = tablePath;
    this.folder = folder;
    this.schema = schema;
    this.partitionColumns = partitionColumns;
    this.options = options;
    this.clock = clock;
    this.prefix = folder.startsWith("_change_data") ? "cdc" : "part";
    partitionIndex = new int[partitionColumns.size()];
    for (int i = 0; i < partitionIndex.length; i++) {
      partitionIndex[i] = schema.indexOf(partitionColumns.get(i));
      if (partitionIndex[i] < 0) {
        throw new SchemaMismatchException("Partition column '" + partitionColumns.get(i) + "' is not in the schema " + schema);
      }
    }
    List<StructField> data = new ArrayList<>();
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      if (!isPartitionColumn(i)) {
        data.add(schema.field(i));
        idx.add(i);
      }
    }
    dataSchema = new StructType(data);
    dataIndex = idx.stream().mapToInt(Integer::intValue).toArray();
  }

  private boolean isPartitionColumn(int i) {
    for (int p : partitionIndex) {
      if (p == i) {
        return true;
      }
    }
    return false;
  }

  /** Writes one row of the table schema. */
  public void write(Row row) {
    Open target = partitionIndex.length == 0 ? unpartitionedFile() : partitionFile(row);
    Row data = dataIndex.length == schema.size() ? row : project(row);
    target.writer.write(data);
    if (target.reachedTargetSize(options.targetFileSizeBytes())) {
      done.add(close(target));
      open.remove(target.partitionKey);
      if (target == unpartitioned) {
        unpartitioned = null;
      }
    }
  }

  private Open unpartitionedFile() {
    return unpartitioned != null ? unpartitioned : openFile("", new LinkedHashMap<>());
  }

  private Open partitionFile(Row row) {
    LinkedHashMap<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < partitionIndex.length; i++) {
      values.put(schema.field(partitionIndex[i]).name(),
          PartitionValues.encode(row.get(partitionIndex[i]), schema.field(partitionIndex[i]).type()));
    }
    String partitionKey = PartitionValues.partitionPath(values);
    Open target = open.get(partitionKey);
    return target != null ? target : openFile(partitionKey, values);
  }

  private Row project(Row row) {
    Object[] out = new Object[dataIndex.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = row.get(dataIndex[i]);
    }
    return Row.of(out);
  }

  private Open openFile(String partitionKey, LinkedHashMap<String, String> values) {
    String name = String.format(Locale.ROOT, "%s-%05d-%s.c000.%s.parquet", prefix, fileNumbers.getAsInt(), UUID.randomUUID(),
        options.codec());
    String relative = StoragePaths.join(folder, partitionKey, name);
    String key = StoragePaths.join(tablePath, relative);
    ParquetDataWriter writer = ParquetDataWriter.open(store, key, dataSchema, parquetOptions());
    Open opened = new Open(writer, partitionKey, key, relative, values);
    open.put(partitionKey, opened);
    if (partitionIndex.length == 0) {
      unpartitioned = opened;
    }
    return opened;
  }

  private ParquetWriteOptions parquetOptions() {
    return ParquetWriteOptions.defaults()
        .withCodec(options.codec().equals("zstd") ? ParquetWriteOptions.Codec.ZSTD : ParquetWriteOptions.Codec.SNAPPY)
        .withNumIndexedCols(options.statsColumns())
        .withDictionaryHints(dictionaryHints);
  }

  /**
   * Writes the change data file that records every row of {@code file} (a data file this writer wrote and closed) as
   * an insert, by copying its column chunks ({@link InsertChangeFile}), and returns it (for a {@code cdc} action).
   */
  public NewFile insertChangeFile(NewFile file) {
    String partitionKey = partitionOf.get(file.key());
    if (partitionKey == null) {
      throw new IllegalArgumentException("Not a file of this writer: " + file.key());
    }
    String name = file.key().substring(file.key().lastIndexOf('/') + 1);
    String relative = StoragePaths.join(ChangeDataWriter.FOLDER, partitionKey, "cdc" + name.substring(prefix.length()));
    String key = StoragePaths.join(tablePath, relative);
    WrittenFile written = InsertChangeFile.write(store, file.key(), file.add().size(), dataSchema,
        ChangeDataWriter.CHANGE_TYPE, key, parquetOptions());
    AddFile add = new AddFile(PartitionValues.toLogPath(relative), file.add().partitionValues(), written.size(),
        clock.millis(), false, null, null, null);
    return new NewFile(add, key, written.numRecords());
  }

  private NewFile close(Open target) {
    partitionOf.put(target.key, target.partitionKey);
    WrittenFile written = target.writer.close();
    AddFile add = new AddFile(PartitionValues.toLogPath(target.relative), target.values, written.size(),
        clock.millis(), true, written.stats(), null, null);
    return new NewFile(add, target.key, written.numRecords());
  }

  /** Closes the open files: the next rows go to new files. */
  public void roll() {
    for (Open o : open.values()) {
      done.add(close(o));
    }
    open.clear();
    unpartitioned = null;
  }

  /** Closes every open file and returns all files written. */
  public List<NewFile> finish() {
    roll();
    return List.copyOf(done);
  }

  /** Deletes every file written or being written (after a failure before commit). */
  public void abort() {
    List<String> keys = new ArrayList<>();
    for (Open o : open.values()) {
      try {
        o.writer.close();
      } catch (RuntimeException ignored) {
        // being deleted anyway
      }
      keys.add(o.key);
    }
    for (NewFile f : done) {
      keys.add(f.key());
    }
    open.clear();
    unpartitioned = null;
    done.clear();
    store.deleteAll(keys);
  }

  /** A file being written. */
  private static final class Open {
    final ParquetDataWriter writer;
    final String partitionKey;
    final String key;
    final String relative;
    final LinkedHashMap<String, String> values;
    private long rows;
    private long nextSizeCheck = 1;

    Open(ParquetDataWriter writer, String partitionKey, String key, String relative, LinkedHashMap<String, String> values) {
      this.writer = writer;
      this.partitionKey = partitionKey;
      this.key = key;
      this.relative = relative;
      this.values = values;
    }

    /**
     * Whether the file reached {@code target} bytes after one more row. Asking the Parquet writer sums
     * every column's buffers, so the size is checked again only after about half the rows that the
     * average row size says still fit: a handful of checks per file, and every row when rows are big.
     */
    boolean reachedTargetSize(long target) {
      if (++rows < nextSizeCheck) {
        return false;
      }
      long bytes = writer.bytesWritten();
      if (bytes >= target) {
        return true;
      }
      long perRow = Math.max(1, bytes / rows);
      nextSizeCheck = rows + Math.max(1, (target - bytes) / perRow / 2);
      return false;
    }
  }
}
