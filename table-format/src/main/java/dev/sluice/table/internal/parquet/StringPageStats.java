package dev.sluice.table.internal.parquet;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The minimum, maximum and null count of a STRING column's current page, kept by {@link ColumnFileWriter} instead of
 * by parquet, whose statistics compare every value with the page's minimum and maximum byte by byte (two
 * {@code Binary.lexicographicCompare} per value, 12-20 % of the encoder thread's samples on bronze's rows). Here a
 * value is compared by its first sixteen bytes as two unsigned numbers first, and by its bytes only when they tie; a
 * value that is the very object written before (a file's {@code _source}, a repeated status: {@link ValueWriters}
 * hands out one {@code Binary} per repeated {@code String}) is not compared at all. Parquet's statistics are turned
 * off for such columns and {@link #pages} hands these to the page writer in their place, so the page headers, the
 * column index and the footer hold the same values as before: the unsigned lexicographic order of UTF-8 bytes.
 *
 * <p>The values {@link #add} keeps are never changed afterwards: the writers' string binaries wrap arrays of their
 * own ({@code Binary.fromConstantByteArray}).
 */
final class StringPageStats {
  private static final VarHandle BIG_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final PrimitiveType type;
  private Binary min;
  private Binary max;
  /** The first and the next eight bytes of {@link #min} and {@link #max} ({@link #key}). */
  private long minKey;
  private long minKey2;
  private long maxKey;
  private long maxKey2;
  private Binary last;
  private long nulls;

  StringPageStats(PrimitiveType type) {
    this.type = type;
  }

  void add(Binary v) {
    if (v == last) {
      return;
    }
    last = v;
    byte[] a = v.getBytesUnsafe();
    long k = key(a, 0);
    long k2 = key(a, Long.BYTES);
    if (min == null) {
      min = v;
      max = v;
      minKey = k;
      minKey2 = k2;
      maxKey = k;
      maxKey2 = k2;
      return;
    }
    if (compare(k, k2, v, maxKey, maxKey2, max) > 0) {
      max = v;
      maxKey = k;
      maxKey2 = k2;
    } else if (compare(k, k2, v, minKey, minKey2, min) < 0) {
      min = v;
      minKey = k;
      minKey2 = k2;
    }
  }

  /** Ids, codes and statuses differ within their first sixteen bytes: their keys decide without their bytes. */
  private static int compare(long k, long k2, Binary v, long otherKey, long otherKey2, Binary other) {
    int c = Long.compareUnsigned(k, otherKey);
    if (c == 0) {
      c = Long.compareUnsigned(k2, otherKey2);
    }
    return c != 0 || v == other ? c : Arrays.compareUnsigned(v.getBytesUnsafe(), other.getBytesUnsafe());
  }

  void addNull() {
    nulls++;
  }

  /** The statistics of the page written now; the next value starts the next page's. */
  Statistics<?> takePage() {
    Statistics.Builder b = Statistics.getBuilderForReading(type).withNumNulls(nulls);
    if (min != null) {
      b.withMin(min.getBytes()).withMax(max.getBytes());
    }
    min = null;
    max = null;
    last = null;
    nulls = 0;
    return b.build();
  }

  /**
   * Eight bytes from {@code from} as an unsigned big-endian number, zeros past the value's end. Of two values whose
   * keys from 0 are equal, the one with the smaller key from 8 is the smaller (a prefix sorts first); equal keys decide
   * nothing.
   */
  private static long key(byte[] a, int from) {
    if (a.length >= from + Long.BYTES) {
      return (long) BIG_ENDIAN_LONGS.get(a, from);
    }
    long k = 0;
    for (int i = from; i < from + Long.BYTES; i++) {
      k = (k << 8) | (i < a.length ? a[i] & 0xff : 0);
    }
    return k;
  }

  /**
   * {@code pages} with each data page of a column of {@code stats} (null entries: parquet's own statistics) given
   * that column's statistics of the values written since its page before.
   */
  static PageWriteStore pages(PageWriteStore pages, Map<ColumnDescriptor, StringPageStats> stats) {
    return column -> {
      PageWriter writer = pages.getPageWriter(column);
      StringPageStats own = stats.get(column);
      return own == null ? writer : new OwnStatistics(writer, own);
    };
  }

  /** A column's page writer that writes each data page with {@link StringPageStats} instead of parquet's. */
  private record OwnStatistics(PageWriter pages, StringPageStats stats) implements PageWriter {
    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> ignored,
        SizeStatistics sizeStatistics, GeospatialStatistics geospatialStatistics, Encoding rlEncoding,
        Encoding dlEncoding, Encoding valuesEncoding) throws IOException {
      pages.writePage(bytes, valueCount, rowCount, stats.takePage(), sizeStatistics, geospatialStatistics, rlEncoding,
          dlEncoding, valuesEncoding);
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> ignored,
        SizeStatistics sizeStatistics, Encoding rlEncoding, Encoding dlEncoding, Encoding valuesEncoding)
        throws IOException {
      pages.writePage(bytes, valueCount, rowCount, stats.takePage(), sizeStatistics, rlEncoding, dlEncoding,
          valuesEncoding);
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> ignored, Encoding rlEncoding,
        Encoding dlEncoding, Encoding valuesEncoding) throws IOException {
      pages.writePage(bytes, valueCount, rowCount, stats.takePage(), rlEncoding, dlEncoding, valuesEncoding);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void writePage(BytesInput bytes, int valueCount, Statistics<?> ignored, Encoding rlEncoding,
        Encoding dlEncoding, Encoding valuesEncoding) throws IOException {
      pages.writePage(bytes, valueCount, stats.takePage(), rlEncoding, dlEncoding, valuesEncoding);
    }

    @Override
    public void writePageV2(int rowCount, int nullCount, int valueCount, BytesInput repetitionLevels,
        BytesInput definitionLevels, Encoding dataEncoding, BytesInput data, Statistics<?> ignored)
        throws IOException {
      pages.writePageV2(rowCount, nullCount, valueCount, repetitionLevels, definitionLevels, dataEncoding, data,
          stats.takePage());
    }

    @Override
    public long getMemSize() {
      return pages.getMemSize();
    }

    @Override
    public long allocatedSize() {
      return pages.allocatedSize();
    }

    @Override
    public void writeDictionaryPage(DictionaryPage dictionaryPage) throws IOException {
      pages.writeDictionaryPage(dictionaryPage);
    }

    @Override
    public String memUsageString(String prefix) {
      return pages.memUsageString(prefix);
    }

    @Override
    public void close() {
      pages.close();
    }
  }
}
