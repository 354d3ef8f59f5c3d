package dev.sluice.table.data;

import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * A run of a data file's rows decoded column by column into primitive arrays, for a reader that keeps columns
 * itself: no row or value objects are made. A fixed-width column's values are longs ({@link #longs}): LONG, INTEGER
 * and DATE (epoch days) as their number, TIMESTAMP as microseconds since the epoch, DECIMAL as the unscaled value at
 * the type's scale, DOUBLE as its raw bits. STRING (UTF-8) and BINARY values are byte ranges of one array
 * ({@link #bytes}, {@link #starts}, {@link #lengths}); rows may share a range (a dictionary entry is stored once), so
 * rows with the same range hold equal values. Only those types come this way (see {@link #supports}). Immutable; the arrays
 * are shared, not copied: don't change them.
 */
public final class DecodedRows {
  private final StructType schema;
  private final int size;
  private final long[][] longs;
  private final byte[][] bytes;
  private final int[][] starts;
  private final int[][] lengths;
  private final long[][] nulls;

  /**
   * Rows {@code 0..size)} of {@code schema}. Per column either {@code longs[c]} or {@code bytes[c]} with
   * {@code starts[c]} and {@code lengths[c]} (value {@code i} is {@code bytes[starts[i], starts[i] + lengths[i])});
   * a column with neither is all null. {@code nulls[c]} is a bitmap of the null rows (bit {@code i % 64} of word
   * {@code i / 64}), null when the column has none; a null row's value is meaningless.
   */
  public DecodedRows(StructType schema, int size, long[][] longs, byte[][] bytes, int[][] starts, int[][] lengths,
      long[][] nulls) {
    this.schema = schema;
    this.size = size;
    this.longs = longs;
    this.bytes = bytes;
    this.starts = starts;
    this.lengths = lengths;
    this.nulls = nulls;
  }

  /** Whether values of {@code type} can come decoded this way. */
  public static boolean supports(DataType type) {
    if (type instanceof DecimalType d) {
      return d.precision() <= 18;
    }
    return type == PrimitiveType.STRING || type == PrimitiveType.BINARY || type == PrimitiveType.LONG
        || type == PrimitiveType.INTEGER || type == PrimitiveType.DATE || type == PrimitiveType.TIMESTAMP
        || type == PrimitiveType.DOUBLE;
  }

  public StructType schema() {
    return schema;
  }

  public int size() {
    return size;
  }

  /** The null bitmap of column {@code c}, or null when none of its rows is null (a column of no values: all are). */
  public long[] nulls(int c) {
    return nulls[c];
  }

  public boolean isNull(int c, int row) {
    return longs[c] == null && bytes[c] == null || isSet(nulls[c], row);
  }

  private static boolean isSet(long[] bits, int i) {
    return bits != null && (bits[i >>> 6] & (1L << i)) != 0;
  }

  /** Column {@code c}'s values as longs (see the class comment), or null for a byte-valued or all-null column. */
  public long[] longs(int c) {
    return longs[c];
  }

  /** Column {@code c}'s value bytes, or null for a fixed-width or all-null column. */
  public byte[] bytes(int c) {
    return bytes[c];
  }

  /** Where each row's value starts in {@link #bytes}. */
  public int[] starts(int c) {
    return starts[c];
  }

  public int[] lengths(int c) {
    return lengths[c];
  }

  /**
   * The rows at {@code rows[0..n)} (ascending positions of this run) as a run of their own: fixed-width values and
   * byte ranges copied, the byte array shared. What a reader hands out when a deletion vector leaves rows out.
   */
  public DecodedRows select(int[] rows, int n) {
    int width = schema.size();
    long[][] keptLongs = new long[width][];
    int[][] keptStarts = new int[width][];
    int[][] keptLengths = new int[width][];
    long[][] keptNulls = new long[width][];
    for (int c = 0; c < width; c++) {
      if (longs[c] != null) {
        keptLongs[c] = new long[n];
        for (int i = 0; i < n; i++) {
          keptLongs[c][i] = longs[c][rows[i]];
        }
      }
      if (bytes[c] != null) {
        keptStarts[c] = new int[n];
        keptLengths[c] = new int[n];
        for (int i = 0; i < n; i++) {
          keptStarts[c][i] = starts[c][rows[i]];
          keptLengths[c][i] = lengths[c][rows[i]];
        }
      }
      if (nulls[c] != null) {
        long[] kept = new long[(n + 63) >>> 6];
        for (int i = 0; i < n; i++) {
          if (isSet(nulls[c], rows[i])) {
            kept[i >>> 6] |= 1L << i;
          }
        }
        keptNulls[c] = kept;
      }
    }
    return new DecodedRows(schema, n, keptLongs, bytes, keptStarts, keptLengths, keptNulls);
  }

  /** Row {@code row} with values as the row readers make them. */
  public Row row(int row) {
    Object[] values = new Object[schema.size()];
    for (int c = 0; c < values.length; c++) {
      box(c, row, 1, values, c);
    }
    return Row.of(values);
  }

  /**
   * Makes the values of rows {@code first..first + n)} of column {@code c}, as the row readers make them, into
   * {@code out[at + i]}: a tight loop per column, one type check per call. A string or other immutable
   * value equal to the row before's is handed out again rather than made twice.
   */
  public void box(int c, int first, int n, Object[] out, int at) {
    long[] nullBits = nulls[c];
    if (longs[c] == null && bytes[c] == null) {
      for (int i = 0; i < n; i++) {
        out[at + i] = null;
      }
      return;
    }
    DataType type = schema.field(c).type();
    if (bytes[c] != null) {
      byte[] data = bytes[c];
      int[] rowStarts = starts[c];
      int[] rowLengths = lengths[c];
      boolean strings = type == PrimitiveType.STRING;
      Object previous = null;
      int previousRow = -1;
      for (int i = 0; i < n; i++) {
        int row = first + i;
        if (isSet(nullBits, row)) {
          out[at + i] = null;
          previous = null;
          continue;
        }
        int start = rowStarts[row];
        int len = rowLengths[row];
        int before = previousRow < 0 ? -1 : rowStarts[previousRow];
        boolean same = strings && previous != null && len == rowLengths[previousRow]
            && (start == before || Arrays.equals(data, start, start + len, data, before, before + len));
        if (!same) {
          // byte[] is mutable: each binary value gets its own array.
          previous = strings ? new String(data, start, len, StandardCharsets.UTF_8)
              : Arrays.copyOfRange(data, start, start + len);
          previousRow = row;
        }
        out[at + i] = previous;
      }
      return;
    }
    long[] values = longs[c];
    int scale = type instanceof DecimalType d ? d.scale() : -1;
    PrimitiveType kind = scale >= 0 ? null : (PrimitiveType) type;
    Object previous = null;
    long previousValue = 0;
    for (int i = 0; i < n; i++) {
      int row = first + i;
      if (isSet(nullBits, row)) {
        out[at + i] = null;
        previous = null;
        continue;
      }
      long v = values[row];
      if (previous == null || v != previousValue) {
        previous = scale >= 0 ? BigDecimal.valueOf(v, scale) : box(kind, v, c);
        previousValue = v;
      }
      out[at + i] = previous;
    }
  }

  private Object box(PrimitiveType kind, long v, int c) {
    return switch (kind) {
      case LONG -> v;
      case INTEGER -> (int) v;
      case DATE -> LocalDate.ofEpochDay(v);
      case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1_000L);
      case DOUBLE -> Double.longBitsToDouble(v);
      default -> throw new IllegalStateException("Column " + schema.field(c).name() + " of type " + kind
          + " has no decoded values");
    };
  }
}
