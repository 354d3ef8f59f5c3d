package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows to one Parquet file, row group by row group, as parquet-hadoop's {@code ParquetWriter} does (same page
 * store, same row group sizing, same footer), but with the values of a flat schema (top-level primitive and decimal
 * columns, bronze's and most tables' shape) handed a chunk at a time ({@link ColumnChunk}) straight to each column's
 * {@link ColumnWriter}, a column after the other. That skips Parquet's record assembly ({@code MessageColumnIO}:
 * field bookkeeping and null filling per value), a fifth of the encoding cost. Nested schemas go through a
 * {@link RecordConsumer} over the same column store, a prepared row ({@link ValueWriters.StructWriter#prepareRow}) at
 * a time.
 *
 * <p>Not thread-safe: used by the one encoder thread of its {@link ParquetDataWriter}.
 */
final class ColumnFileWriter {
  /** Rows a chunk's columns are written in at a time: a page overshoots its size by at most this many rows' values. */
  private static final int STRETCH = 128;
  private final ParquetFileWriter file;
  private final MessageType schema;
  private final ParquetProperties props;
  private final BytesInputCompressor compressor;
  private final ValueWriters.StructWriter root;
  /** Whether the schema is flat: written from {@link ColumnChunk}s, else from prepared rows. */
  private final boolean flat;
  /** Per top-level column: its page statistics when kept here ({@link StringPageStats}), else null. */
  private final StringPageStats[] ownStats;
  private final Map<ColumnDescriptor, StringPageStats> ownStatsByColumn = new HashMap<>();
  private final List<ColumnDescriptor> columns;
  private final long rowGroupSizeThreshold;
  private long nextRowGroupSize;
  private ColumnWriteStore columnStore;
  private ColumnChunkPageWriteStore pageStore;
  private ColumnWriter[] columnWriters;
  private RecordConsumer consumer;
  private long recordCount;
  private long recordCountForNextMemCheck;
  private long lastRowGroupEndPos;
  private int rowGroupOrdinal;

  /**
   * @param ownStats for a flat schema, the top-level columns whose page statistics this writer keeps instead of
   *     parquet ({@link StringPageStats}: STRING columns written with parquet's statistics off); else ignored
   */
  ColumnFileWriter(OutputFile out, MessageType schema, ValueWriters.StructWriter root,
      boolean flat, boolean[] ownStats, ParquetProperties props, BytesInputCompressor compressor,
      long rowGroupSize) throws IOException {
    this.schema = schema;
    this.props = props;
    this.compressor = compressor;
    this.root = root;
    this.flat = flat;
    this.columns = schema.getColumns();
    this.ownStats = new StringPageStats[columns.size()];
    if (flat) {
      for (int i = 0; i < ownStats.length; i++) {
        if (ownStats[i]) {
          this.ownStats[i] = new StringPageStats(columns.get(i).getPrimitiveType());
          ownStatsByColumn.put(columns.get(i), this.ownStats[i]);
        }
      }
    }
    this.rowGroupSizeThreshold = rowGroupSize;
    this.nextRowGroupSize = rowGroupSize;
    this.file = new ParquetFileWriter(out, schema, ParquetFileWriter.Mode.CREATE, rowGroupSize,
        ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null, props);
    file.start();
    this.recordCountForNextMemCheck = props.getMinRowCountForPageSizeCheck();
    initStore();
  }

  private void initStore() {
    pageStore = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(),
        props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), null, rowGroupOrdinal);
    columnStore = props.newColumnWriteStore(schema,
        ownStatsByColumn.isEmpty() ? pageStore : StringPageStats.pages(pageStore, ownStatsByColumn), pageStore);
    if (flat) {
      columnWriters = new ColumnWriter[columns.size()];
      for (int i = 0; i < columnWriters.length; i++) {
        columnWriters[i] = columnStore.getColumnWriter(columns.get(i));
      }
    } else {
      MessageColumnIO io = new ColumnIOFactory(false).getColumnIO(schema);
      consumer = io.getRecordWriter(columnStore);
    }
  }

  /** Writes a row of a nested schema from {@link ValueWriters.StructWriter#prepareRow}. */
  void write(Row prepared) throws IOException {
    consumer.startMessage();
    root.writePreparedFields(consumer, prepared);
    consumer.endMessage();
    columnStore.endRecord();
    recordCount++;
    checkBlockSizeReached();
  }

  /**
   * Writes the rows of a flat schema's chunk, a column after the other, in stretches of at most {@link #STRETCH} rows.
   * A stretch also ends where a row-by-row write would ask the row group's size (and at the row group's row limit),
   * so row groups end where they did; a page may end up to a stretch later (the column store checks page sizes as
   * records end, and sees a stretch's values at once).
   */
  void write(ColumnChunk chunk) throws IOException {
    int n = chunk.size();
    for (int from = 0; from < n; ) {
      long untilCheck = Math.min(recordCountForNextMemCheck, props.getRowGroupRowCountLimit()) - recordCount;
      int to = (int) Math.min(n, from + Math.max(1, Math.min(STRETCH, untilCheck)));
      for (int i = 0; i < columnWriters.length; i++) {
        chunk.writeColumn(i, columnWriters[i], from, to, ownStats[i]);
      }
      for (int r = from; r < to; r++) {
        columnStore.endRecord();
      }
      recordCount += to - from;
      checkBlockSizeReached();
      from = to;
    }
  }

  /** As {@code InternalParquetRecordWriter}: the buffered size is asked now and then, not after every row. */
  private void checkBlockSizeReached() throws IOException {
    if (recordCount >= props.getRowGroupRowCountLimit()) {
      flushRowGroup();
      nextMemCheck();
    } else if (recordCount >= recordCountForNextMemCheck) {
      long memSize = columnStore.getBufferedSize();
      long recordSize = memSize / recordCount;
      if (memSize > (nextRowGroupSize - 2 * recordSize)) {
        flushRowGroup();
        nextMemCheck();
      } else {
        recordCountForNextMemCheck = Math.min(
            Math.max(props.getMinRowCountForPageSizeCheck(),
                (recordCount + (long) (nextRowGroupSize / ((float) recordSize))) / 2),
            recordCount + props.getMaxRowCountForPageSizeCheck());
      }
    }
  }

  private void nextMemCheck() throws IOException {
    recordCountForNextMemCheck = props.getMinRowCountForPageSizeCheck();
    lastRowGroupEndPos = file.getPos();
    initStore();
  }

  private void flushRowGroup() throws IOException {
    if (consumer != null) {
      consumer.flush(); // record assembly holds back the nulls of nested fields until asked
    }
    if (recordCount > 0) {
      rowGroupOrdinal++;
      file.startBlock(recordCount);
      columnStore.flush();
      pageStore.flushToFileWriter(file);
      recordCount = 0;
      file.endBlock();
      nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSizeThreshold);
    }
    pageStore.close(); // its pages are in the file now; the column store holds nothing after flush()
  }

  /** Bytes written plus those buffered for the current row group. */
  long dataSize() {
    return lastRowGroupEndPos + columnStore.getBufferedSize();
  }

  /** Writes the last row group and the footer (no key/value metadata: Spark and Kernel read the schema only). */
  void close() throws IOException {
    flushRowGroup();
    file.end(Map.of());
  }

  /** The footer written by {@link #close()}. */
  ParquetMetadata footer() {
    return file.getFooter();
  }

  /** Releases the buffers after a failure; the file itself is deleted by the caller. */
  void abandon() {
    try {
      pageStore.close();
    } catch (RuntimeException ignored) {
      // the file is being given up
    }
  }
}
