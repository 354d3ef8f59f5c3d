package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a Parquet data file into {@link Row}s of a read schema. Columns are matched by name (exact
 * case first); a column the file lacks reads as null, and only requested columns are decoded. Reads
 * what Spark and other engines write (see {@link PrimitiveConverters} and {@link ParquetProjection}).
 */
public final class ParquetDataReader implements CloseableIterator<Row> {
  private final String path;
  private final ParquetFileReader reader;
  private final int width;
  private final MessageColumnIO columnIO;
  private final RowConverters.RowMaterializer materializer;
  private RecordReader<Row> records;
  private long remainingInGroup;
  private long remainingNullRows;
  private boolean closed;

  private ParquetDataReader(ObjectStore store, String key, long size, StructType readSchema) {
    StoreInputFile file = new StoreInputFile(store, key, size);
    this.path = file.toString();
    this.width = readSchema.size();
    ParquetReadOptions options = ParquetReadOptions.builder().withCodecFactory(PageCodecs.INSTANCE).build();
    try {
      this.reader = ParquetFileReader.open(file, options);
    } catch (IOException e) {
      throw new StorageException("Opening Parquet data file " + path + " failed: " + e.getMessage(), e);
    }
    try {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      MessageType clipped = ParquetProjection.clip(readSchema, fileSchema);
      if (clipped.getFieldCount() == 0) {
        // Nothing to decode: every requested column is missing, so each row is all nulls.
        this.columnIO = null;
        this.materializer = null;
        this.remainingNullRows = reader.getRecordCount();
      } else {
        this.materializer = new RowConverters.RowMaterializer(readSchema, clipped, path);
        reader.setRequestedSchema(clipped);
        this.columnIO = new ColumnIOFactory(reader.getFooter().getFileMetaData().getCreatedBy())
            .getColumnIO(clipped, fileSchema, true /* strict */);
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Opens {@code key} for reading; the caller closes the iterator.
   *
   * @param size the object's exact size in bytes, or -1 to ask the store
   * @throws dev.sluice.table.exceptions.SchemaMismatchException if a requested column's stored type
   *     cannot be read as the requested type (the message names the file and column)
   */
  public static CloseableIterator<Row> read(ObjectStore store, String key, long size, StructType readSchema) {
    return new ParquetDataReader(store, key, size, readSchema);
  }

  @Override
  public boolean hasNext() {
    if (columnIO == null) {
      return remainingNullRows > 0;
    }
    while (remainingInGroup == 0) {
      PageReadStore pages;
      try {
        pages = reader.readNextRowGroup();
      } catch (IOException e) {
        throw new StorageException("Reading a row group of Parquet data file " + path + " failed: " + e.getMessage(), e);
      }
      if (pages == null) {
        return false;
      }
      remainingInGroup = pages.getRowCount();
      records = columnIO.getRecordReader(pages, materializer, FilterCompat.NOOP);
    }
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in " + path);
    }
    if (columnIO == null) {
      remainingNullRows--;
      return Row.of(new Object[width]);
    }
    remainingInGroup--;
    return records.read();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      try {
        reader.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Closing Parquet data file " + path + " failed", e);
      }
    }
  }
}
