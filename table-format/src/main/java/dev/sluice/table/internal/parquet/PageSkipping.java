package dev.sluice.table.internal.parquet;

import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.internal.partition.ColumnStats;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Narrows a filtered read of one Parquet file to the pages that may hold a match, from the file's column indexes
 * (per-page min, max and null count, which parquet-mr 1.11+ and Spark write by default). A keyed MERGE looks up a few
 * hundred keys in a file of millions of rows; file stats keep the file, and without this its key columns were read
 * whole.
 *
 * <p>Each column the filter names is judged on its own: a page is kept when the filter might match a row whose value
 * of that column lies within the page's bounds (the other columns unknown), and a row is a candidate only when every
 * such column keeps its page. That is conservative for any filter, ORs included, because the judge answers "no" only
 * when no row consistent with the bounds can match. Bounds are used only where they convert exactly to the column's
 * Java values (see {@link #bound}); any other column restricts nothing.
 */
public final class PageSkipping {
  private static final ParquetReadOptions OPTIONS = ParquetReadOptions.builder(new PlainParquetConfiguration())
      .withCodecFactory(PageCodecs.INSTANCE).build();

  private PageSkipping() {}

  /**
   * The rows (positions in the file, from 0) in pages that {@code mightMatch} keeps, or null when it keeps every row
   * (or the file has no usable index).
   *
   * @param filterColumns the columns the filter names, as the table's schema spells and types them
   * @param mightMatch whether a page with these statistics (keyed by the schema's column names) may hold a match
   */
  public static BitSet candidateRows(ObjectStore store, String key, long size, StructType filterColumns,
      Predicate<ColumnStats> mightMatch) {
    StoreInputFile file = new StoreInputFile(store, key, size);
    try (ParquetFileReader reader = ParquetFileReader.open(file, OPTIONS)) {
      if (reader.getRecordCount() > Integer.MAX_VALUE) {
        return null;
      }
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      BitSet out = new BitSet();
      boolean skipped = false;
      long groupStart = 0;
      for (BlockMetaData group : reader.getRowGroups()) {
        int rows = Math.toIntExact(group.getRowCount());
        BitSet kept = keptRows(reader, schema, group, filterColumns, mightMatch);
        if (kept == null) {
          out.set(Math.toIntExact(groupStart), Math.toIntExact(groupStart + rows));
        } else {
          skipped |= kept.cardinality() < rows;
          for (int i = kept.nextSetBit(0); i >= 0; i = kept.nextSetBit(i + 1)) {
            int end = kept.nextClearBit(i);
            out.set(Math.toIntExact(groupStart + i), Math.toIntExact(groupStart + end));
            i = end;
          }
        }
        groupStart += rows;
      }
      return skipped ? out : null;
    } catch (IOException e) {
      throw new StorageException("Reading the page index of Parquet data file " + file + " failed: " + e.getMessage(), e);
    }
  }

  /** The group's rows (from 0) that every indexed filter column keeps; null when no column restricts them. */
  private static BitSet keptRows(ParquetFileReader reader, MessageType schema, BlockMetaData group,
      StructType filterColumns, Predicate<ColumnStats> mightMatch) throws IOException {
    BitSet kept = null;
    List<ColumnChunkMetaData> chunks = group.getColumns();
    for (int c = 0; c < schema.getFieldCount(); c++) {
      Type field = schema.getType(c);
      StructField column = filterColumns.field(field.getName()).orElse(null);
      if (column == null || !field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)
          || !(column.type() instanceof PrimitiveType type)) {
        continue;
      }
      ColumnChunkMetaData chunk = chunkOf(chunks, field.getName());
      if (chunk == null || chunk.getColumnIndexReference() == null || chunk.getOffsetIndexReference() == null) {
        continue;
      }
      ColumnIndex index = reader.readColumnIndex(chunk);
      OffsetIndex offsets = reader.readOffsetIndex(chunk);
      if (index == null || offsets == null) {
        continue;
      }
      BitSet pages = keptPages(field.asPrimitiveType(), column.name(), type, index, offsets, group.getRowCount(),
          mightMatch);
      if (pages != null) {
        if (kept == null) {
          kept = pages;
        } else {
          kept.and(pages);
        }
      }
    }
    return kept;
  }

  private static ColumnChunkMetaData chunkOf(List<ColumnChunkMetaData> chunks, String name) {
    for (ColumnChunkMetaData chunk : chunks) {
      String[] path = chunk.getPath().toArray();
      if (path.length == 1 && path[0].equals(name)) {
        return chunk;
      }
    }
    return null;
  }

  /** The rows of the pages the judge keeps; null when the column's bounds can't be used. */
  private static BitSet keptPages(org.apache.parquet.schema.PrimitiveType physical, String name, PrimitiveType type,
      ColumnIndex index, OffsetIndex offsets, long groupRows, Predicate<ColumnStats> mightMatch) {
    if (physical.columnOrder().getColumnOrderName() != ColumnOrder.ColumnOrderName.TYPE_DEFINED_ORDER) {
      return null;
    }
    List<Boolean> nullPages = index.getNullPages();
    List<ByteBuffer> mins = index.getMinValues();
    List<ByteBuffer> maxes = index.getMaxValues();
    List<Long> nullCounts = index.getNullCounts();
    int pages = offsets.getPageCount();
    if (nullPages.size() != pages || mins.size() != pages || maxes.size() != pages) {
      return null;
    }
    BitSet kept = new BitSet();
    for (int p = 0; p < pages; p++) {
      long first = offsets.getFirstRowIndex(p);
      long end = p + 1 < pages ? offsets.getFirstRowIndex(p + 1) : groupRows;
      long rows = end - first;
      Long nulls = nullCounts == null ? null : nullCounts.get(p);
      ColumnStats stats;
      if (nullPages.get(p)) {
        stats = ColumnStats.of(rows, Map.of(), Map.of(), Map.of(name, rows));
      } else {
        Object min = bound(physical, type, mins.get(p));
        Object max = bound(physical, type, maxes.get(p));
        if (min == null || max == null) {
          return null;
        }
        stats = ColumnStats.of(rows, Map.of(name, min), Map.of(name, max),
            nulls == null ? Map.of() : Map.of(name, nulls));
      }
      if (mightMatch.test(stats)) {
        kept.set(Math.toIntExact(first), Math.toIntExact(end));
      }
    }
    return kept;
  }

  /**
   * A page bound as the column's Java value, or null when it can't be converted exactly. Strings only when ASCII:
   * parquet orders strings by unsigned UTF-8 bytes and Java by UTF-16 units, which agree on ASCII only (a truncated
   * index max, rounded up by a byte, stays a true bound).
   */
  static Object bound(org.apache.parquet.schema.PrimitiveType physical, DataType type, ByteBuffer raw) {
    ByteBuffer b = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    LogicalTypeAnnotation logical = physical.getLogicalTypeAnnotation();
    switch (physical.getPrimitiveTypeName()) {
      case INT64 -> {
        if (b.remaining() != 8) {
          return null;
        }
        long v = b.getLong(b.position());
        if (type == PrimitiveType.LONG && isSignedInt(logical, 64)) {
          return v;
        }
        if (type == PrimitiveType.TIMESTAMP && logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
            && t.isAdjustedToUTC()) {
          return switch (t.getUnit()) {
            case MICROS -> Instant.EPOCH.plusSeconds(Math.floorDiv(v, 1_000_000L))
                .plusNanos(Math.floorMod(v, 1_000_000L) * 1_000L);
            case MILLIS -> Instant.ofEpochMilli(v);
            case NANOS -> null;
          };
        }
        return null;
      }
      case INT32 -> {
        if (b.remaining() != 4) {
          return null;
        }
        int v = b.getInt(b.position());
        if (type == PrimitiveType.DATE && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return LocalDate.ofEpochDay(v);
        }
        if (!(logical == null || isSignedInt(logical, 32) || isSignedInt(logical, 16) || isSignedInt(logical, 8))) {
          return null;
        }
        if (type == PrimitiveType.INTEGER) {
          return v;
        }
        if (type == PrimitiveType.LONG) {
          return (long) v;
        }
        return null;
      }
      case BINARY -> {
        if (type != PrimitiveType.STRING
            || !(logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation)) {
          return null;
        }
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        for (byte x : bytes) {
          if (x < 0) {
            return null;
          }
        }
        return new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
      }
      default -> {
        return null;
      }
    }
  }

  private static boolean isSignedInt(LogicalTypeAnnotation logical, int width) {
    if (logical == null) {
      return true;
    }
    return logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned() && i.getBitWidth() == width;
  }
}
