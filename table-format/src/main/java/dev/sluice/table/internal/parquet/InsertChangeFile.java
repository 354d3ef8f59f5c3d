package dev.sluice.table.internal.parquet;

import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * The change data file of a data file whose rows are all inserts: the data file's column chunks copied byte for byte
 * (pages, dictionaries, column and offset indexes), plus a {@code _change_type} column holding {@code insert} in
 * every row. A MERGE that changes a table with the change data feed on must record its inserted rows in change files
 * too (a version with change files is read from them alone); encoding those rows a second time cost as much as
 * writing them, and copying their chunks costs a file read.
 */
public final class InsertChangeFile {
  private static final ParquetReadOptions OPTIONS = ParquetReadOptions.builder(new PlainParquetConfiguration())
      .withCodecFactory(PageCodecs.INSTANCE).build();
  private static final Binary INSERT = Binary.fromConstantByteArray("insert".getBytes(StandardCharsets.UTF_8));

  private InsertChangeFile() {}

  /**
   * Writes, at {@code changeKey}, the change file of the data file at {@code dataKey} ({@code dataSize} bytes, of
   * {@code dataSchema}): its rows with {@code changeType} (a string column named as {@code changeTypeColumn}) set to
   * {@code insert}. On failure nothing stays at {@code changeKey}.
   *
   * @return the change file: its key, size and row count (no statistics: {@code cdc} actions carry none)
   */
  public static WrittenFile write(ObjectStore store, String dataKey, long dataSize, StructType dataSchema,
      String changeTypeColumn, String changeKey, ParquetWriteOptions options) {
    MessageType schema = ParquetSchemas.toParquet(dataSchema.add(changeTypeColumn, PrimitiveType.STRING));
    ColumnDescriptor changeType = schema.getColumns().get(schema.getColumns().size() - 1);
    ParquetProperties props = ParquetDataWriter.properties(options).build();
    BytesInputCompressor compressor = PageCodecs.INSTANCE.getCompressor(CompressionCodecName.valueOf(options.codec().name()));
    TrackedOutputFile out = new TrackedOutputFile(new StoreOutputFile(store, changeKey));
    long rows = 0;
    StoreInputFile in = new StoreInputFile(store, dataKey, dataSize);
    try (ParquetFileReader reader = ParquetFileReader.open(in, OPTIONS); SeekableInputStream from = in.newStream()) {
      List<ColumnDescriptor> dataColumns = reader.getFileMetaData().getSchema().getColumns();
      if (!dataColumns.equals(schema.getColumns().subList(0, schema.getColumns().size() - 1))) {
        throw new IllegalStateException("The data file " + store.uriOf(dataKey) + " does not have the columns of "
            + dataSchema + "; its change file can't copy them");
      }
      ParquetFileWriter file = new ParquetFileWriter(out, schema, ParquetFileWriter.Mode.CREATE, options.rowGroupSize(),
          0, null, props);
      file.start();
      int ordinal = 0;
      for (BlockMetaData block : reader.getRowGroups()) {
        file.startBlock(block.getRowCount());
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          file.appendColumnChunk(schema.getColumnDescription(chunk.getPath().toArray()), from, chunk, null,
              reader.readColumnIndex(chunk), reader.readOffsetIndex(chunk));
        }
        writeConstant(file, changeType, block.getRowCount(), props, compressor, ordinal++);
        file.endBlock();
        rows += block.getRowCount();
      }
      file.end(Map.of());
    } catch (IOException | RuntimeException e) {
      out.closeQuietly();
      store.delete(changeKey);
      throw new StorageException("Writing the change data file " + store.uriOf(changeKey) + " of "
          + store.uriOf(dataKey) + " failed: " + e.getMessage() + "; the partial object was deleted", e);
    }
    return new WrittenFile(changeKey, out.length(), rows, "{}");
  }

  /** One column chunk of {@code rows} {@code insert} values, dictionary-encoded as Parquet's own writer does. */
  private static void writeConstant(ParquetFileWriter file, ColumnDescriptor column, long rows, ParquetProperties props,
      BytesInputCompressor compressor, int ordinal) throws IOException {
    MessageType one = new MessageType("spark_schema", column.getPrimitiveType());
    ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(compressor, one, props.getAllocator(),
        props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), null, ordinal);
    try {
      ColumnWriteStore values = props.newColumnWriteStore(one, pages, pages);
      ColumnWriter writer = values.getColumnWriter(one.getColumns().get(0));
      for (long r = 0; r < rows; r++) {
        writer.write(INSERT, 0, column.getMaxDefinitionLevel());
        values.endRecord();
      }
      values.flush();
      pages.flushToFileWriter(file);
    } finally {
      pages.close();
    }
  }
}
