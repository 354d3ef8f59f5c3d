package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.GenericRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Writes one Parquet data file of a Delta table through an {@link ObjectStore}, collecting its
 * {@code add.stats} on the way. No Hadoop {@code FileSystem} or codec is involved.
 *
 * <p>The file becomes visible when {@link #close()} succeeds. The caller calls exactly one of
 * {@link #close()} or {@link #abort()}. A {@link SchemaMismatchException} from {@link #write} leaves
 * the writer usable (the row was checked before anything was written); after any other failure, abort.
 *
 * <p>Rows are checked and counted on the caller's thread and encoded on another ({@link EncoderPipeline}), so a
 * storage failure of one row may be raised by a later call. Rows handed to {@link #write} must not change.
 */
public final class ParquetDataWriter {
  private final ObjectStore store;
  private final String key;
  private final TrackedOutputFile file;
  private final ColumnFileWriter writer;
  private final ValueWriters.StructWriter root;
  private final FileStats stats;
  private final EncoderPipeline encoder;
  private final DictionaryHints hints;
  /** The leaf columns (dot-joined paths) written plain on a hint, whose outcome teaches nothing. */
  private final Set<String> plain = new HashSet<>();
  private boolean finished;
  /** For a flat schema: the values of the row being written ({@link #read}), and a row over them; else null. */
  private final Object[] scratch;
  private final Row scratchRow;
  private final StructType schema;
  /** For a flat schema: the chunk being filled, and those encoded and handed back to be filled again; else null. */
  private ColumnChunk chunk;
  private final java.util.Queue<ColumnChunk> freeChunks = new java.util.concurrent.ConcurrentLinkedQueue<>();

  private ParquetDataWriter(ObjectStore store, String key, StructType schema, ParquetWriteOptions options) {
    this.store = store;
    this.key = key;
    this.schema = schema;
    this.root = ValueWriters.root(schema);
    this.stats = new FileStats(schema, options.numIndexedCols());
    this.file = new TrackedOutputFile(new StoreOutputFile(store, key));
    this.hints = options.dictionaryHints();
    MessageType parquetSchema = ParquetSchemas.toParquet(schema);
    ParquetProperties.Builder props = properties(options);
    for (ColumnDescriptor column : parquetSchema.getColumns()) {
      String path = ColumnPath.get(column.getPath()).toDotString();
      if (hints.plain(path)) {
        plain.add(path);
        props.withDictionaryEncoding(path, false);
      }
    }
    boolean flat = ColumnChunk.fits(schema);
    this.scratch = flat ? new Object[schema.size()] : null;
    this.scratchRow = flat ? Row.of(scratch) : null;
    this.chunk = flat ? ColumnChunk.of(schema, root) : null;
    boolean[] ownStats = new boolean[schema.size()];
    for (int i = 0; flat && i < ownStats.length; i++) {
      // A flat schema's i-th field is its i-th leaf.
      ownStats[i] = schema.field(i).type() == PrimitiveType.STRING;
      if (ownStats[i]) {
        props.withStatisticsEnabled(ColumnPath.get(parquetSchema.getColumns().get(i).getPath()).toDotString(), false);
      }
    }
    try {
      this.writer = new ColumnFileWriter(file, parquetSchema, root, flat, ownStats, props.build(),
          PageCodecs.INSTANCE.getCompressor(CompressionCodecName.valueOf(options.codec().name())),
          options.rowGroupSize());
    } catch (IOException e) {
      throw new StorageException("Creating Parquet data file " + store.uriOf(key) + " failed: " + e.getMessage(), e);
    }
    this.encoder = new EncoderPipeline(writer::write);
  }

  /** The page settings of every file Sluice writes (before any column's dictionary hint). */
  static ParquetProperties.Builder properties(ParquetWriteOptions options) {
    return ParquetProperties.builder()
        .withPageSize(options.pageSize())
        .withDictionaryPageSize(options.pageSize())
        // Page size statistics (new in Parquet 1.14) are read by no Delta engine; they cost a pass over every value.
        .withSizeStatisticsEnabled(false)
        .withValuesWriterFactory(new DictionaryWriterFactory());
  }

  /**
   * Starts a new data file at {@code key}.
   *
   * @throws dev.sluice.table.exceptions.UnsupportedTableFeatureException if the schema has a type
   *     Sluice cannot write (a map with non-string keys, timestamp_ntz)
   */
  public static ParquetDataWriter open(ObjectStore store, String key, StructType schema, ParquetWriteOptions options) {
    return new ParquetDataWriter(store, key, schema, options);
  }

  /** Writes all {@code rows} to a new data file at {@code key}; on failure the object is deleted. */
  public static WrittenFile write(
      ObjectStore store, String key, StructType schema, Iterator<Row> rows, ParquetWriteOptions options) {
    ParquetDataWriter writer = open(store, key, schema, options);
    try {
      while (rows.hasNext()) {
        writer.write(rows.next());
      }
      return writer.close();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
  }

  /**
   * Appends a row (values in the Java mapping of {@link dev.sluice.table.types.DataType}).
   *
   * @throws SchemaMismatchException if a value does not fit its column; the message names the column
   */
  public void write(Row row) {
    Row values = read(row);
    root.checkRow(values);
    try {
      if (chunk == null) {
        encoder.add(root.prepareRow(values));
      } else {
        chunk.add(values);
        if (chunk.full()) {
          submitChunk();
        }
      }
    } catch (Exception e) {
      throw failure("Writing", e);
    }
    stats.add(values);
  }

  /** Hands the chunk being filled (if it holds rows) to the encoder, and takes an empty one. */
  private void submitChunk() throws Exception {
    if (chunk == null || chunk.size() == 0) {
      return;
    }
    ColumnChunk full = chunk;
    ColumnChunk free = freeChunks.poll();
    chunk = free != null ? free : ColumnChunk.of(schema, root);
    encoder.submit(() -> {
      writer.write(full);
      full.clear();
      freeChunks.add(full);
    });
  }

  /**
   * A row of a flat schema that is a view (bronze's lineage and column order over a parsed row, a batch's block) read
   * once into an array reused row after row: checking, preparing and the statistics each read every value, three
   * passes through the views' {@code get} (their calls were ~7 % of the bronze stage's samples). Nothing keeps it.
   */
  private Row read(Row row) {
    if (scratch == null || row instanceof GenericRow || row.size() != scratch.length) {
      return row;
    }
    for (int i = 0; i < scratch.length; i++) {
      scratch[i] = row.get(i);
    }
    return scratchRow;
  }

  /**
   * Bytes written so far plus those buffered for the current row group; use it to roll files at a target size.
   * Waits for the rows handed to the encoder, so ask now and then, not after every row.
   */
  public long bytesWritten() {
    try {
      submitChunk();
      encoder.drain();
    } catch (Exception e) {
      throw failure("Writing", e);
    }
    return writer.dataSize();
  }

  private RuntimeException failure(String doing, Exception e) {
    if (e instanceof RuntimeException r) {
      return r;
    }
    return new StorageException(doing + " Parquet data file " + store.uriOf(key) + " failed: " + e.getMessage(), e);
  }

  public long numRecords() {
    return stats.numRecords();
  }

  /** Writes the footer and makes the file visible. */
  public WrittenFile close() {
    finished = true;
    try {
      submitChunk();
      encoder.drain();
      writer.close();
    } catch (Exception e) {
      encoder.cancel();
      discard();
      throw new StorageException("Finishing Parquet data file " + store.uriOf(key) + " failed: " + e.getMessage()
          + "; the partial object was deleted", e);
    }
    learnDictionaries(writer.footer());
    return new WrittenFile(key, file.length(), stats.numRecords(), stats.toJson());
  }

  /** Tells the hints which columns that tried a dictionary kept it (Parquet decides at the first page). */
  private void learnDictionaries(ParquetMetadata footer) {
    if (footer.getBlocks().isEmpty()) {
      return;
    }
    for (ColumnChunkMetaData column : footer.getBlocks().get(0).getColumns()) {
      String path = column.getPath().toDotString();
      if (!plain.contains(path)) {
        Statistics<?> stats = column.getStatistics();
        long values = column.getValueCount() - (stats == null || !stats.isNumNullsSet() ? 0 : stats.getNumNulls());
        hints.record(path, values, !column.hasDictionaryPage());
      }
    }
  }

  /** Gives up the file: nothing stays visible at {@code key}. Safe to call after a failure. */
  public void abort() {
    if (!finished) {
      finished = true;
      discard();
    }
  }

  private void discard() {
    encoder.cancel();
    writer.abandon();
    file.closeQuietly();
    store.delete(key);
  }
}
