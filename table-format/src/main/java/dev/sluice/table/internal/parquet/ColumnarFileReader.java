package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Reads a flat Parquet data file column by column into {@link DecodedRows}, a run of up to {@value #RUN} rows of a
 * row group at a time, for a caller that keeps columns: the row reader ({@link ParquetDataReader}) makes a row and
 * a Java object per value, which such a caller turned back into primitives. Only a file whose every requested
 * column is stored in the form Sluice and Spark write for its type (see {@link #fits}) is read so; for any other,
 * {@link #open} says no and the caller reads rows.
 */
public final class ColumnarFileReader implements CloseableIterator<DecodedRows> {
  /** Rows per run at most: a run's arrays stay small whatever a row group holds. */
  static final int RUN = 1 << 16;

  private final String path;
  private final ParquetFileReader reader;
  private final StructType schema;
  /** Per read column, its column in the clipped file schema, or -1 (missing from the file: all null). */
  private final int[] fileColumn;
  private final MessageType clipped;
  private ColumnCursor[] cursors;
  /** Per clipped column of the current row group: its uncompressed bytes per row, to size a run's byte arrays. */
  private double[] bytesPerRow;
  private int groupIndex;
  private long leftInGroup;
  private boolean closed;

  private ColumnarFileReader(String path, ParquetFileReader reader, StructType schema, MessageType clipped,
      int[] fileColumn) {
    this.path = path;
    this.reader = reader;
    this.schema = schema;
    this.clipped = clipped;
    this.fileColumn = fileColumn;
  }

  /** The file's rows as decoded runs, or empty when a column's type or shape isn't read this way. */
  public static Optional<CloseableIterator<DecodedRows>> open(ObjectStore store, String key, long size,
      StructType readSchema) {
    for (StructField f : readSchema.fields()) {
      if (!DecodedRows.supports(f.type())) {
        return Optional.empty();
      }
    }
    StoreInputFile file = new StoreInputFile(store, key, size);
    ParquetFileReader reader = ParquetDataReader.openFile(file);
    try {
      MessageType clipped = ParquetProjection.clip(readSchema, reader.getFooter().getFileMetaData().getSchema());
      int[] fileColumn = new int[readSchema.size()];
      java.util.Arrays.fill(fileColumn, -1);
      for (int i = 0; i < clipped.getFieldCount(); i++) {
        Type field = clipped.getType(i);
        StructField wanted = ParquetProjection.match(readSchema, field.getName());
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)
            || !fits(wanted.type(), field.asPrimitiveType())) {
          reader.close();
          return Optional.empty();
        }
        fileColumn[readSchema.indexOf(wanted.name())] = i;
      }
      reader.setRequestedSchema(clipped);
      return Optional.of(new ColumnarFileReader(file.toString(), reader, readSchema, clipped, fileColumn));
    } catch (RuntimeException | IOException e) {
      try {
        reader.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new UncheckedIOException((IOException) e);
    }
  }

  /**
   * Whether a file column reads as {@code want} with the values {@link DecodedRows} holds, exactly as the row
   * reader would convert them: anything needing a conversion (millisecond timestamps, another decimal scale, INT96,
   * unsigned integers) is left to the row reader.
   */
  static boolean fits(DataType want, org.apache.parquet.schema.PrimitiveType file) {
    PrimitiveTypeName physical = file.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = file.getLogicalTypeAnnotation();
    if (!ColumnCursor.supports(physical)) {
      return false;
    }
    if (want instanceof DecimalType d) {
      return (physical == PrimitiveTypeName.INT64 || physical == PrimitiveTypeName.INT32)
          && logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation fd && fd.getScale() == d.scale();
    }
    boolean signedOrPlain = logical == null
        || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned();
    return switch ((PrimitiveType) want) {
      case STRING, BINARY -> physical == PrimitiveTypeName.BINARY;
      case LONG -> (physical == PrimitiveTypeName.INT64 || physical == PrimitiveTypeName.INT32) && signedOrPlain;
      case INTEGER -> physical == PrimitiveTypeName.INT32 && signedOrPlain;
      case DATE -> physical == PrimitiveTypeName.INT32;
      case DOUBLE -> physical == PrimitiveTypeName.DOUBLE;
      case TIMESTAMP -> physical == PrimitiveTypeName.INT64
          && logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
          && ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS;
      default -> false;
    };
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    while (leftInGroup == 0) {
      PageReadStore pages = ParquetDataReader.nextRowGroup(reader, path);
      if (pages == null) {
        return false;
      }
      leftInGroup = pages.getRowCount();
      java.util.List<ColumnDescriptor> columns = clipped.getColumns();
      cursors = new ColumnCursor[columns.size()];
      bytesPerRow = new double[columns.size()];
      org.apache.parquet.hadoop.metadata.BlockMetaData group = reader.getRowGroups().get(groupIndex++);
      for (int i = 0; i < cursors.length; i++) {
        cursors[i] = new ColumnCursor(columns.get(i), pages.getPageReader(columns.get(i)), path);
        for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData chunk : group.getColumns()) {
          if (chunk.getPath().equals(columns.get(i).getPath()) && leftInGroup > 0) {
            bytesPerRow[i] = (double) chunk.getTotalUncompressedSize() / leftInGroup;
          }
        }
      }
    }
    return true;
  }

  @Override
  public DecodedRows next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in " + path);
    }
    int n = (int) Math.min(RUN, leftInGroup);
    int width = schema.size();
    long[][] longs = new long[width][];
    byte[][] bytes = new byte[width][];
    int[][] starts = new int[width][];
    int[][] lengths = new int[width][];
    long[][] nulls = new long[width][];
    for (int c = 0; c < width; c++) {
      int at = fileColumn[c];
      if (at < 0) {
        continue; // not in the file: all null
      }
      long[] nullBits = new long[(n + 63) >>> 6];
      boolean anyNull;
      DataType type = schema.field(c).type();
      if (type == PrimitiveType.STRING || type == PrimitiveType.BINARY) {
        // Sized by the column chunk's bytes per row: a run's values are not copied into ever larger arrays.
        ColumnCursor.ByteRanges ranges = new ColumnCursor.ByteRanges(n, (int) Math.min(1 << 26, bytesPerRow[at] * n));
        anyNull = cursors[at].read(n, null, ranges, nullBits);
        bytes[c] = ranges.data;
        starts[c] = ranges.starts;
        lengths[c] = ranges.lengths;
      } else {
        longs[c] = new long[n];
        anyNull = cursors[at].read(n, longs[c], null, nullBits);
      }
      nulls[c] = anyNull ? nullBits : null;
    }
    leftInGroup -= n;
    return new DecodedRows(schema, n, longs, bytes, starts, lengths, nulls);
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
