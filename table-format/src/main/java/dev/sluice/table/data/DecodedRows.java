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
 * ({@link #bytes}, {@link #offsets}). Only those types come this way (see {@link #supports}). Immutable; the arrays
 * are shared, not copied: don't change them.
 */
public final class DecodedRows {
  private final StructType schema;
  private final int size;
  private final long[][] longs;
  private final byte[][] bytes;
  private final int[][] offsets;
  private final long[][] nulls;

  /**
   * Rows {@code 0..size)} of {@code schema}. Per column either {@code longs[c]} or {@code bytes[c]} with
   * {@code offsets[c]} (size + 1 of them: value {@code i} is {@code bytes[offsets[i], offsets[i + 1])}); a column
   * with neither is all null. {@code nulls[c]} is a bitmap of the null rows (bit {@code i % 64} of word
   * {@code i / 64}), null when the column has none; a null row's value is meaningless.
   */
  public DecodedRows(StructType schema, int size, long[][] longs, byte[][] bytes, int[][] offsets, long[][] nulls) {
    this.schema = schema;
    this.size = size;
    this.longs = longs;
    this.bytes = bytes;
    this.offsets = offsets;
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
    if (longs[c] == null && bytes[c] == null) {
      return true;
    }
    long[] n = nulls[c];
    return n != null && (n[row >>> 6] & (1L << row)) != 0;
  }

  /** Column {@code c}'s values as longs (see the class comment), or null for a byte-valued or all-null column. */
  public long[] longs(int c) {
    return longs[c];
  }

  /** Column {@code c}'s value bytes, or null for a fixed-width or all-null column. */
  public byte[] bytes(int c) {
    return bytes[c];
  }

  public int[] offsets(int c) {
    return offsets[c];
  }

  /** Row {@code row} with values as the row readers make them. */
  public Row row(int row) {
    Object[] values = new Object[schema.size()];
    for (int c = 0; c < values.length; c++) {
      values[c] = isNull(c, row) ? null : value(c, row);
    }
    return Row.of(values);
  }

  private Object value(int c, int row) {
    DataType type = schema.field(c).type();
    if (bytes[c] != null) {
      int from = offsets[c][row];
      int to = offsets[c][row + 1];
      return type == PrimitiveType.STRING ? new String(bytes[c], from, to - from, StandardCharsets.UTF_8)
          : Arrays.copyOfRange(bytes[c], from, to);
    }
    long v = longs[c][row];
    if (type instanceof DecimalType d) {
      return BigDecimal.valueOf(v, d.scale());
    }
    return switch ((PrimitiveType) type) {
      case LONG -> v;
      case INTEGER -> (int) v;
      case DATE -> LocalDate.ofEpochDay(v);
      case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1_000L);
      case DOUBLE -> Double.longBitsToDouble(v);
      default -> throw new IllegalStateException("Column " + schema.field(c).name() + " of type " + type
          + " has no decoded values");
    };
  }
}
