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
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.Type;
import org.apache.parquet.conf.PlainParquetConfiguration;
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
  // Built once: the no-argument builder starts from a Hadoop Configuration, which parses core-default.xml for each
  // file opened (most of a short run's read of a small file, seen in a profile of the +1 % increment).
  private static final ParquetReadOptions OPTIONS = ParquetReadOptions.builder(new PlainParquetConfiguration())
      .withCodecFactory(PageCodecs.INSTANCE).build();

  private final String path;
  private final ParquetFileReader reader;
  private final int width;
  private final MessageColumnIO columnIO;
  private final RowConverters.RowMaterializer materializer;
  private final MessageType clipped;
  // Flat files (top-level primitive columns only, Delta's usual shape) are read column by column: no record
  // assembly state machine, and a row left out by a selection is skipped without being converted.
  private final boolean flat;
  private final java.util.BitSet selected;
  // A selection of a flat file with offset indexes is read a row group at a time through parquet's row ranges: only
  // the pages holding a selected row are read and decompressed, and each column reader steps over the other rows'
  // values in bulk (skipping row by row, column by column, was most of a MERGE's second pass over a touched file).
  private final boolean ranged;
  /** A group is read whole when more than 1 row in this many is chosen, in short runs. */
  private static final int DENSE_SHARE = 8;
  // Runs this long on average are whole pages (what page skipping chooses): row ranges over them cost next to
  // nothing and leave the other pages unread, however many rows are chosen.
  private static final int LONG_RUN = 1_000;
  private long[] rangedRows = new long[0];
  private int rangedNext;
  private long groupStart;
  // A group most of whose rows are chosen is read whole, stepping over the few others: row ranges cost more there.
  private boolean groupWhole;
  private long groupNextRow;
  private RecordReader<Row> records;
  private ColumnReader[] columns;
  private int[] maxDefinition;
  private long remainingInGroup;
  private long remainingNullRows;
  private long nextIndex;
  private int nextGroup;
  private boolean closed;

  private ParquetDataReader(ObjectStore store, String key, long size, StructType readSchema, java.util.BitSet selected) {
    StoreInputFile file = new StoreInputFile(store, key, size);
    this.path = file.toString();
    this.width = readSchema.size();
    this.selected = selected;
    this.reader = openFile(file);
    try {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      this.clipped = ParquetProjection.clip(readSchema, fileSchema);
      if (clipped.getFieldCount() == 0) {
        // Nothing to decode: every requested column is missing, so each row is all nulls.
        this.columnIO = null;
        this.materializer = null;
        this.flat = false;
        this.ranged = false;
        this.remainingNullRows = reader.getRecordCount();
      } else {
        this.materializer = new RowConverters.RowMaterializer(readSchema, clipped, path);
        reader.setRequestedSchema(clipped);
        this.flat = isFlat(clipped);
        this.ranged = flat && selected != null && hasOffsetIndexes(reader);
        this.columnIO = flat ? null : new ColumnIOFactory(reader.getFooter().getFileMetaData().getCreatedBy())
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
    return new ParquetDataReader(store, key, size, readSchema, null);
  }

  /** Opens a data file for reading (footer read), its failure a {@link StorageException} naming it. */
  static ParquetFileReader openFile(StoreInputFile file) {
    try {
      return ParquetFileReader.open(file, OPTIONS);
    } catch (IOException e) {
      throw new StorageException("Opening Parquet data file " + file + " failed: " + e.getMessage(), e);
    }
  }

  /** The file's next row group, or null after the last; a failure is a {@link StorageException} naming the file. */
  static PageReadStore nextRowGroup(ParquetFileReader reader, String path) {
    try {
      return reader.readNextRowGroup();
    } catch (IOException e) {
      throw new StorageException("Reading a row group of Parquet data file " + path + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * The rows at the row indexes in {@code rows} (positions in the file, from 0), with their indexes, in file order.
   * The other rows are not converted, and a row group without a selected row is not read at all.
   */
  public static CloseableIterator<dev.sluice.table.internal.IndexedRow> readSelected(ObjectStore store, String key,
      long size, StructType readSchema, java.util.BitSet rows) {
    ParquetDataReader reader = new ParquetDataReader(store, key, size, readSchema, rows);
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return reader.hasNext();
      }

      @Override
      public dev.sluice.table.internal.IndexedRow next() {
        Row row = reader.next();
        return new dev.sluice.table.internal.IndexedRow(reader.nextIndex - 1, row);
      }

      @Override
      public void close() {
        reader.close();
      }
    };
  }

  private static boolean isFlat(MessageType schema) {
    for (Type t : schema.getFields()) {
      if (!t.isPrimitive() || t.isRepetition(Type.Repetition.REPEATED)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasOffsetIndexes(ParquetFileReader reader) {
    for (BlockMetaData block : reader.getRowGroups()) {
      for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData column : block.getColumns()) {
        if (column.getOffsetIndexReference() == null) {
          return false;
        }
      }
    }
    return true;
  }

  /** Opens the next row group holding a selected row through its row ranges; false when none is left. */
  private boolean openRangedGroup() {
    List<BlockMetaData> blocks = reader.getRowGroups();
    while (nextGroup < blocks.size()) {
      long rows = blocks.get(nextGroup).getRowCount();
      int from = selected.nextSetBit(Math.toIntExact(groupStart));
      if (from < 0) {
        return false;
      }
      if (from >= groupStart + rows) {
        groupStart += rows;
        nextGroup++;
        continue;
      }
      int to = Math.toIntExact(Math.min(groupStart + rows, Integer.MAX_VALUE));
      long[] chosen = selected.get(from, to).stream().mapToLong(i -> i + from).toArray();
      long start = groupStart;
      groupWhole = chosen.length == rows
          || (chosen.length * DENSE_SHARE > rows && chosen.length < runs(chosen) * LONG_RUN);
      groupNextRow = start;
      PageReadStore pages;
      try {
        pages = groupWhole ? reader.readRowGroup(nextGroup)
            : reader.readFilteredRowGroup(nextGroup, SelectedRows.ranges(chosen, start, rows));
      } catch (IOException e) {
        throw new StorageException("Reading a row group of Parquet data file " + path + " failed: " + e.getMessage(), e);
      }
      openColumns(pages);
      rangedRows = chosen;
      rangedNext = 0;
      groupStart += rows;
      nextGroup++;
      return true;
    }
    return false;
  }

  /** The number of runs of consecutive rows in {@code rows} (ascending). */
  private static long runs(long[] rows) {
    long runs = rows.length == 0 ? 0 : 1;
    for (int i = 1; i < rows.length; i++) {
      if (rows[i] != rows[i - 1] + 1) {
        runs++;
      }
    }
    return runs;
  }

  @Override
  public boolean hasNext() {
    if (ranged) {
      return rangedNext < rangedRows.length || openRangedGroup();
    }
    if (columnIO == null && !flat) {
      return selected == null ? remainingNullRows > 0 : nextSelectedNullRow();
    }
    while (true) {
      while (remainingInGroup == 0) {
        if (selected != null && !skipUnselectedGroups()) {
          return false;
        }
        PageReadStore pages = nextRowGroup(reader, path);
        if (pages == null) {
          return false;
        }
        nextGroup++;
        remainingInGroup = pages.getRowCount();
        if (flat) {
          openColumns(pages);
        } else {
          records = columnIO.getRecordReader(pages, materializer, FilterCompat.NOOP);
        }
      }
      if (selected == null) {
        return true;
      }
      int next = selected.nextSetBit(Math.toIntExact(nextIndex));
      if (next < 0) {
        return false;
      }
      if (next >= nextIndex + remainingInGroup) {
        // Nothing more selected in this row group: leave the rest of it unread.
        nextIndex += remainingInGroup;
        remainingInGroup = 0;
        continue;
      }
      while (nextIndex < next) {
        skipRow();
      }
      return true;
    }
  }

  /** Skips whole row groups before the next selected row; false when no selected row is left in the file. */
  private boolean skipUnselectedGroups() {
    int next = selected.nextSetBit(Math.toIntExact(nextIndex));
    if (next < 0) {
      return false;
    }
    List<BlockMetaData> blocks = reader.getRowGroups();
    while (nextGroup < blocks.size() && nextIndex + blocks.get(nextGroup).getRowCount() <= next) {
      nextIndex += blocks.get(nextGroup).getRowCount();
      if (!reader.skipNextRowGroup()) {
        return false;
      }
      nextGroup++;
    }
    return true;
  }

  private boolean nextSelectedNullRow() {
    while (remainingNullRows > 0 && !selected.get(Math.toIntExact(nextIndex))) {
      remainingNullRows--;
      nextIndex++;
    }
    return remainingNullRows > 0;
  }

  private void openColumns(PageReadStore pages) {
    ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, materializer.getRootConverter(), clipped,
        reader.getFooter().getFileMetaData().getCreatedBy());
    List<ColumnDescriptor> descriptors = clipped.getColumns();
    columns = new ColumnReader[descriptors.size()];
    maxDefinition = new int[descriptors.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = store.getColumnReader(descriptors.get(i));
      maxDefinition[i] = descriptors.get(i).getMaxDefinitionLevel();
    }
  }

  private void skipColumns() {
    for (int i = 0; i < columns.length; i++) {
      if (columns[i].getCurrentDefinitionLevel() == maxDefinition[i]) {
        columns[i].skip();
      }
      columns[i].consume();
    }
  }

  private void skipRow() {
    if (flat) {
      skipColumns();
    } else {
      records.read();
    }
    remainingInGroup--;
    nextIndex++;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in " + path);
    }
    if (ranged) {
      long row = rangedRows[rangedNext++];
      if (groupWhole) {
        for (; groupNextRow < row; groupNextRow++) {
          skipColumns();
        }
        groupNextRow++;
      }
      nextIndex = row + 1;
      return readFlatRow();
    }
    nextIndex++;
    if (columnIO == null && !flat) {
      remainingNullRows--;
      return Row.of(new Object[width]);
    }
    remainingInGroup--;
    if (!flat) {
      return records.read();
    }
    return readFlatRow();
  }

  private Row readFlatRow() {
    GroupConverter root = materializer.getRootConverter();
    root.start();
    for (int i = 0; i < columns.length; i++) {
      // A value below the column's maximum definition level is a null: its converter is not called.
      if (columns[i].getCurrentDefinitionLevel() == maxDefinition[i]) {
        columns[i].writeCurrentValueToConverter();
      }
      columns[i].consume();
    }
    root.end();
    return materializer.getCurrentRecord();
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
