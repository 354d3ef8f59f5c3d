package dev.sluice.ingestion.internal.spill;

import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One column of a {@link ColumnarRows}: the values in chunks of primitive arrays from the {@link ChunkPool} (strings
 * and binaries as bytes), a null bitmap beside them. A row's value is written at its position; {@link #set} refuses
 * (returns false) a value the layout can't hold exactly, such as a decimal of another scale, so that the buffer can
 * fall back to its spill file. Objects are made again on every read. Two classes only, so that the calls per value
 * stay inlined.
 */
abstract sealed class ColumnVector permits ColumnVector.Fixed, ColumnVector.Bytes {
  private long[] nulls = new long[16];

  /** A column for values of {@code type}, or null when the type has no columnar layout here (nested, timestamp_ntz). */
  static ColumnVector of(DataType type) {
    if (type instanceof DecimalType d) {
      return d.precision() <= 18 ? new Fixed(Fixed.DECIMAL, d.scale()) : null;
    }
    if (!(type instanceof PrimitiveType p)) {
      return null;
    }
    return switch (p) {
      case STRING -> new Bytes(true);
      case BINARY -> new Bytes(false);
      case LONG -> new Fixed(Fixed.LONG, 0);
      case INTEGER -> new Fixed(Fixed.INTEGER, 0);
      case SHORT -> new Fixed(Fixed.SHORT, 0);
      case BYTE -> new Fixed(Fixed.BYTE, 0);
      case BOOLEAN -> new Fixed(Fixed.BOOLEAN, 0);
      case DATE -> new Fixed(Fixed.DATE, 0);
      case DOUBLE -> new Fixed(Fixed.DOUBLE, 0);
      case FLOAT -> new Fixed(Fixed.FLOAT, 0);
      case TIMESTAMP -> new Fixed(Fixed.TIMESTAMP, 0);
      case TIMESTAMP_NTZ -> null;
    };
  }

  /** Stores {@code value} (null allowed) as row {@code row}, rows in order; false when it doesn't fit exactly. */
  final boolean set(int row, Object value) {
    if (row >> 6 >= nulls.length) {
      nulls = Arrays.copyOf(nulls, nulls.length * 2);
    }
    if (value == null) {
      nulls[row >> 6] |= 1L << row;
      return true;
    }
    nulls[row >> 6] &= ~(1L << row);
    return setValue(row, value);
  }

  /**
   * Makes the values of rows {@code from} to {@code from + n - 1} into {@code out[at + i]}, one after another (a value
   * equal to the one before is handed out again: values are immutable).
   */
  abstract void fill(Object[] out, int at, int from, int n);

  private static long[] allNull(int n) {
    long[] bits = new long[(n + 63) >>> 6];
    Arrays.fill(bits, -1L);
    return bits;
  }

  final boolean isNull(int row) {
    return (nulls[row >> 6] & (1L << row)) != 0;
  }

  /**
   * The heap the first {@code rows} values take (chunks hold up to a chunk more): what a batch's budget counts, as
   * it counts boxed rows by their estimated size.
   */
  final long bytes(int rows) {
    return rows / 8 + usedBytes(rows);
  }

  abstract boolean setValue(int row, Object value);

  /**
   * Stores column {@code c} of {@code run} as rows {@code first..first + run.size())}, in order after the rows
   * before; false (nothing to count on stored) when a value doesn't fit exactly, as {@link #set} refuses one.
   */
  abstract boolean append(int first, DecodedRows run, int c);

  /** Marks rows {@code first..first + n)} null or not as {@code bits} says (null: none is). */
  final void setNulls(int first, int n, long[] bits) {
    int last = first + n - 1;
    if (last >> 6 >= nulls.length) {
      nulls = Arrays.copyOf(nulls, Math.max(nulls.length * 2, (last >> 6) + 1));
    }
    if (n <= 0) {
      return;
    }
    if (bits == null || (first & 63) == 0) {
      // Word at a time: no nulls (clear the range), or a run starting on a word (copy its words).
      int end = first + n;
      for (int w = first >> 6; w <= (end - 1) >> 6; w++) {
        long range = -1L;
        if (w == first >> 6) {
          range &= -1L << first;
        }
        if (w == (end - 1) >> 6) {
          range &= -1L >>> (63 - ((end - 1) & 63));
        }
        long set = bits == null ? 0 : bits[w - (first >> 6)] & range;
        nulls[w] = nulls[w] & ~range | set;
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      int row = first + i;
      if ((bits[i >>> 6] & (1L << i)) != 0) {
        nulls[row >> 6] |= 1L << row;
      } else {
        nulls[row >> 6] &= ~(1L << row);
      }
    }
  }


  abstract long usedBytes(int rows);

  /** Hands the chunks back to the pool; the column must not be read again. */
  abstract void release();

  /** Fixed-width values as one long each: integers, booleans, dates, floating point by their bits, timestamps. */
  static final class Fixed extends ColumnVector {
    static final int LONG = 0;
    static final int INTEGER = 1;
    static final int SHORT = 2;
    static final int BYTE = 3;
    static final int BOOLEAN = 4;
    static final int DATE = 5;
    static final int DOUBLE = 6;
    static final int FLOAT = 7;
    /** Nanoseconds since the epoch: years 1678 to 2261 (others don't fit). */
    static final int TIMESTAMP = 8;
    /** Unscaled, of the column's scale and at most 18 digits (precision). */
    static final int DECIMAL = 9;
    private static final long NANOS = 1_000_000_000L;
    /** The largest unscaled value of at most 18 digits. */
    private static final long MAX_UNSCALED = 999_999_999_999_999_999L;

    private final int kind;
    private final int scale;
    private final List<long[]> chunks = new ArrayList<>();

    Fixed(int kind, int scale) {
      this.kind = kind;
      this.scale = scale;
    }

    @Override
    boolean setValue(int row, Object value) {
      long v;
      if (kind == LONG && value instanceof Long l) {
        v = l;
      } else if (kind == INTEGER && value instanceof Integer i) {
        v = i;
      } else if (kind == SHORT && value instanceof Short sh) {
        v = sh;
      } else if (kind == BYTE && value instanceof Byte b) {
        v = b;
      } else if (kind == BOOLEAN && value instanceof Boolean b) {
        v = b ? 1 : 0;
      } else if (kind == DATE && value instanceof LocalDate d) {
        v = d.toEpochDay();
      } else if (kind == DOUBLE && value instanceof Double d) {
        v = Double.doubleToRawLongBits(d);
      } else if (kind == FLOAT && value instanceof Float f) {
        v = Float.floatToRawIntBits(f);
      } else if (kind == TIMESTAMP && value instanceof Instant t
          && t.getEpochSecond() > Long.MIN_VALUE / NANOS && t.getEpochSecond() < Long.MAX_VALUE / NANOS) {
        v = t.getEpochSecond() * NANOS + t.getNano();
      } else if (kind == DECIMAL && value instanceof BigDecimal d && d.scale() == scale && d.precision() <= 18) {
        // At most 18 digits: the unscaled value is a long, read without making it a BigInteger (twice, per value).
        v = d.movePointRight(scale).longValue();
      } else {
        return false;
      }
      int chunk = row >>> ChunkPool.ROW_SHIFT;
      while (chunks.size() <= chunk) {
        chunks.add(ChunkPool.longs());
      }
      chunks.get(chunk)[row & (ChunkPool.ROWS - 1)] = v;
      return true;
    }

    @Override
    boolean append(int first, DecodedRows run, int c) {
      long[] values = run.longs(c);
      long[] bits = run.nulls(c);
      int n = run.size();
      if (values == null) {
        if (run.bytes(c) != null) {
          return false;
        }
        setNulls(first, n, allNull(n));
        return true;
      }
      if (kind == TIMESTAMP || kind == DECIMAL) {
        for (int i = 0; i < n; i++) {
          if ((bits == null || (bits[i >>> 6] & (1L << i)) == 0) && !fits(values[i])) {
            return false;
          }
        }
      }
      setNulls(first, n, bits);
      int i = 0;
      while (i < n) {
        int row = first + i;
        int chunk = row >>> ChunkPool.ROW_SHIFT;
        while (chunks.size() <= chunk) {
          chunks.add(ChunkPool.longs());
        }
        int at = row & (ChunkPool.ROWS - 1);
        int take = Math.min(n - i, ChunkPool.ROWS - at);
        long[] target = chunks.get(chunk);
        if (kind == TIMESTAMP) {
          for (int k = 0; k < take; k++) {
            target[at + k] = values[i + k] * 1_000L; // microseconds to nanoseconds: fits() checked the range
          }
        } else {
          System.arraycopy(values, i, target, at, take);
        }
        i += take;
      }
      return true;
    }

    /** Whether a decoded value (microseconds, or an unscaled decimal) is one {@link #setValue} would take. */
    private boolean fits(long v) {
      if (kind == TIMESTAMP) {
        long seconds = Math.floorDiv(v, 1_000_000L);
        return seconds > Long.MIN_VALUE / NANOS && seconds < Long.MAX_VALUE / NANOS;
      }
      return v <= MAX_UNSCALED && v >= -MAX_UNSCALED;
    }

    @Override
    void fill(Object[] out, int at, int from, int n) {
      long[] chunk = null;
      int chunkIndex = -1;
      Object previous = null;
      long previousValue = 0;
      for (int i = 0; i < n; i++) {
        int row = from + i;
        if (isNull(row)) {
          out[at + i] = null;
          previous = null;
          continue;
        }
        if (row >>> ChunkPool.ROW_SHIFT != chunkIndex) {
          chunkIndex = row >>> ChunkPool.ROW_SHIFT;
          chunk = chunks.get(chunkIndex);
        }
        long v = chunk[row & (ChunkPool.ROWS - 1)];
        if (previous == null || v != previousValue) {
          previous = box(v);
          previousValue = v;
        }
        out[at + i] = previous;
      }
    }

    boolean holdsTimestamps() {
      return kind == TIMESTAMP;
    }

    /** The non-null timestamp of {@code row} in microseconds since the epoch (floor, as {@code Instant}s give). */
    long micros(int row) {
      return Math.floorDiv(chunks.get(row >>> ChunkPool.ROW_SHIFT)[row & (ChunkPool.ROWS - 1)], 1_000L);
    }

    private Object box(long v) {
      return switch (kind) {
        case LONG -> v;
        case INTEGER -> (int) v;
        case SHORT -> (short) v;
        case BYTE -> (byte) v;
        case BOOLEAN -> v != 0;
        case DATE -> LocalDate.ofEpochDay(v);
        case DOUBLE -> Double.longBitsToDouble(v);
        case FLOAT -> Float.intBitsToFloat((int) v);
        case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv(v, NANOS), Math.floorMod(v, NANOS));
        default -> BigDecimal.valueOf(v, scale);
      };
    }

    @Override
    long usedBytes(int rows) {
      return 8L * rows;
    }

    @Override
    void release() {
      chunks.forEach(ChunkPool::give);
      chunks.clear();
    }
  }

  /**
   * Strings (as UTF-8) or binaries, their bytes appended to data chunks (a value never spans two: one longer than a
   * chunk gets an array of its own). A row's place is its chunk and offset in one int. A value equal to the row
   * before's points at that row's bytes instead of copying them (a bronze row's source file, repeated over
   * thousands of rows). A decoded run's byte array is kept as it is rather than copied (see {@link #append}): it
   * takes one chunk entry per {@link ChunkPool#BYTES} of it, each entry the same array from its own base offset.
   */
  static final class Bytes extends ColumnVector {
    /** Ranges of a run remembered with the place they were stored at (a power of two). */
    private static final int RANGE_CACHE = 256;
    private final boolean strings;
    private final List<byte[]> data = new ArrayList<>();
    /** Bytes used of the last data chunk. */
    private int used;
    private long usedTotal;
    private final List<int[]> places = new ArrayList<>();
    private final List<int[]> lengths = new ArrayList<>();
    /** Per data entry, where it starts in its array: 0 for a chunk of our own, else a window of a kept run. */
    private int[] bases = new int[16];
    /** The data entries that are kept runs' arrays (never handed to the pool). */
    private final java.util.BitSet kept = new java.util.BitSet();
    private Object last;
    private int lastRow = -1;

    Bytes(boolean strings) {
      this.strings = strings;
    }

    @Override
    boolean setValue(int row, Object value) {
      if (strings ? !(value instanceof String) : !(value instanceof byte[])) {
        return false;
      }
      int chunk = row >>> ChunkPool.ROW_SHIFT;
      while (places.size() <= chunk) {
        places.add(ChunkPool.ints());
        lengths.add(ChunkPool.ints());
      }
      int at = row & (ChunkPool.ROWS - 1);
      if (lastRow == row - 1 && last != null && (last == value || strings && last.equals(value))) {
        places.get(chunk)[at] = placeOf(lastRow);
        lengths.get(chunk)[at] = lengthOf(lastRow);
      } else {
        byte[] b = strings ? ((String) value).getBytes(StandardCharsets.UTF_8) : (byte[]) value;
        if (data.size() >= (1 << (31 - ChunkPool.BYTE_SHIFT)) - 1) {
          return false; // 2 GB of values: more than any budget lets a batch hold
        }
        places.get(chunk)[at] = store(b, 0, b.length);
        lengths.get(chunk)[at] = b.length;
        usedTotal += b.length;
      }
      last = value;
      lastRow = row;
      return true;
    }

    @Override
    boolean append(int first, DecodedRows run, int c) {
      byte[] values = run.bytes(c);
      int n = run.size();
      if (values == null) {
        if (run.longs(c) != null) {
          return false;
        }
        setNulls(first, n, allNull(n));
        last = null;
        return true;
      }
      long[] bits = run.nulls(c);
      int[] rowStarts = run.starts(c);
      int[] rowLengths = run.lengths(c);
      long total = 0;
      for (int i = 0; i < n; i++) {
        total += rowLengths[i];
      }
      // Each chunk the run may start holds at least half a chunk of its bytes (or one value of its own).
      if (data.size() + 2 * (total >> ChunkPool.BYTE_SHIFT) + 2 >= (1 << (31 - ChunkPool.BYTE_SHIFT)) - 1) {
        return false; // 2 GB of values: more than any budget lets a batch hold
      }
      if (keeps(values, total)) {
        keep(first, n, values, bits, rowStarts, rowLengths);
        return true;
      }
      // The place each recent range of the run was stored at: rows sharing a range (a dictionary entry, such as a
      // status among five) point at one copy, whether or not they follow each other.
      int[] cachedRange = new int[RANGE_CACHE];
      int[] cachedLength = new int[RANGE_CACHE];
      int[] cachedPlace = new int[RANGE_CACHE];
      setNulls(first, n, bits);
      int previous = -1;
      for (int i = 0; i < n; i++) {
        int row = first + i;
        int chunk = row >>> ChunkPool.ROW_SHIFT;
        while (places.size() <= chunk) {
          places.add(ChunkPool.ints());
          lengths.add(ChunkPool.ints());
        }
        int at = row & (ChunkPool.ROWS - 1);
        if (bits != null && (bits[i >>> 6] & (1L << i)) != 0) {
          previous = -1;
          continue;
        }
        int from = rowStarts[i];
        int length = rowLengths[i];
        if (previous >= 0 && rowLengths[previous] == length && sameBytes(values, rowStarts[previous], from, length)) {
          places.get(chunk)[at] = placeOf(row - 1);
          lengths.get(chunk)[at] = length;
        } else {
          int slot = (from * 0x9E3779B1 >>> 24) & (RANGE_CACHE - 1);
          int place;
          if (cachedRange[slot] == from + 1 && cachedLength[slot] == length) {
            place = cachedPlace[slot];
          } else {
            place = store(values, from, length);
            usedTotal += length;
            cachedRange[slot] = from + 1;
            cachedLength[slot] = length;
            cachedPlace[slot] = place;
          }
          places.get(chunk)[at] = place;
          lengths.get(chunk)[at] = length;
        }
        previous = i;
      }
      last = null;
      lastRow = -1;
      return true;
    }

    /**
     * Whether a run's byte array is worth keeping instead of copying its values: mostly its rows' bytes (a reader's
     * array for the run, with a little room to spare, or shared dictionary entries), not a few rows of a larger array
     * (a run that a deletion vector thinned, sharing its reader's array), which a copy frees.
     */
    private boolean keeps(byte[] values, long total) {
      int entries = (values.length >> ChunkPool.BYTE_SHIFT) + 1;
      return values.length <= 2 * total + 4096 && data.size() + entries < (1 << (31 - ChunkPool.BYTE_SHIFT)) - 1;
    }

    /**
     * Keeps {@code values} as data entries of this column, one per {@link ChunkPool#BYTES} of it, and points each
     * row at its range: the copy a reader made of the run's values is the only one. The array is the run's, immutable
     * ({@link DecodedRows}), and never goes to the pool: nothing writes into it. A value may run past its entry's
     * window into the next (the same array), which a read from the entry's base offset allows.
     */
    private void keep(int first, int n, byte[] values, long[] bits, int[] rowStarts, int[] rowLengths) {
      int entry = data.size();
      for (int base = 0; base == 0 || base < values.length; base += ChunkPool.BYTES) {
        kept.set(data.size());
        addEntry(values, base);
      }
      used = ChunkPool.BYTES; // the next stored value starts a chunk of its own
      usedTotal += values.length;
      setNulls(first, n, bits);
      int previous = -1;
      int i = 0;
      while (i < n) {
        // A chunk of places at a time: the list lookups once per chunk, not per row.
        int row = first + i;
        int chunk = row >>> ChunkPool.ROW_SHIFT;
        while (places.size() <= chunk) {
          places.add(ChunkPool.ints());
          lengths.add(ChunkPool.ints());
        }
        int[] placeChunk = places.get(chunk);
        int[] lengthChunk = lengths.get(chunk);
        int at = row & (ChunkPool.ROWS - 1);
        int stop = Math.min(n, i + ChunkPool.ROWS - at);
        for (; i < stop; i++, at++) {
          if (bits != null && (bits[i >>> 6] & (1L << i)) != 0) {
            previous = -1;
            continue;
          }
          int from = rowStarts[i];
          int length = rowLengths[i];
          // Equal to the row before: the same place, so that a read hands out one string for both.
          int start = previous >= 0 && rowLengths[previous] == length && sameBytes(values, rowStarts[previous], from,
              length) ? rowStarts[previous] : from;
          placeChunk[at] = (entry + (start >>> ChunkPool.BYTE_SHIFT)) << ChunkPool.BYTE_SHIFT
              | (start & (ChunkPool.BYTES - 1));
          lengthChunk[at] = length;
          previous = i;
        }
      }
      last = null;
      lastRow = -1;
    }

    /**
     * Whether two values of a run's bytes are equal: the same range (a dictionary entry), else compared from the last
     * byte (ids that differ mostly differ there), then whole.
     */
    private static boolean sameBytes(byte[] values, int a, int b, int length) {
      return a == b || length == 0 || values[a + length - 1] == values[b + length - 1]
          && Arrays.equals(values, a, a + length, values, b, b + length);
    }

    /** Copies a value's bytes into the data chunks; returns its place. */
    private int store(byte[] b, int from, int length) {
      if (length > ChunkPool.BYTES) {
        addEntry(Arrays.copyOfRange(b, from, from + length), 0);
        used = length;
        return (data.size() - 1) << ChunkPool.BYTE_SHIFT;
      }
      if (data.isEmpty() || used + length > ChunkPool.BYTES) {
        addEntry(ChunkPool.bytes(), 0);
        used = 0;
      }
      System.arraycopy(b, from, data.get(data.size() - 1), used, length);
      int place = (data.size() - 1) << ChunkPool.BYTE_SHIFT | used;
      used += length;
      return place;
    }

    /** Adds a data entry: {@code array} read from {@code base} (0 for a chunk of this column's own). */
    private void addEntry(byte[] array, int base) {
      if (data.size() == bases.length) {
        bases = Arrays.copyOf(bases, bases.length * 2);
      }
      bases[data.size()] = base;
      data.add(array);
    }

    private int placeOf(int row) {
      return places.get(row >>> ChunkPool.ROW_SHIFT)[row & (ChunkPool.ROWS - 1)];
    }

    private int lengthOf(int row) {
      return lengths.get(row >>> ChunkPool.ROW_SHIFT)[row & (ChunkPool.ROWS - 1)];
    }

    @Override
    void fill(Object[] out, int at, int from, int n) {
      int[] placeChunk = null;
      int[] lengthChunk = null;
      int chunkIndex = -1;
      Object previous = null;
      int previousPlace = -1;
      int previousLength = -1;
      for (int i = 0; i < n; i++) {
        int row = from + i;
        if (isNull(row)) {
          out[at + i] = null;
          previous = null;
          continue;
        }
        if (row >>> ChunkPool.ROW_SHIFT != chunkIndex) {
          chunkIndex = row >>> ChunkPool.ROW_SHIFT;
          placeChunk = places.get(chunkIndex);
          lengthChunk = lengths.get(chunkIndex);
        }
        int place = placeChunk[row & (ChunkPool.ROWS - 1)];
        int length = lengthChunk[row & (ChunkPool.ROWS - 1)];
        if (strings && previous != null && place == previousPlace && length == previousLength) {
          out[at + i] = previous; // the same bytes: the same immutable string
          continue;
        }
        byte[] chunk = data.get(place >>> ChunkPool.BYTE_SHIFT);
        int start = bases[place >>> ChunkPool.BYTE_SHIFT] + (place & (ChunkPool.BYTES - 1));
        previous = strings ? new String(chunk, start, length, StandardCharsets.UTF_8)
            : Arrays.copyOfRange(chunk, start, start + length);
        previousPlace = place;
        previousLength = length;
        out[at + i] = previous;
      }
    }

    @Override
    long usedBytes(int rows) {
      return usedTotal + 8L * rows;
    }

    @Override
    void release() {
      for (int i = 0; i < data.size(); i++) {
        if (!kept.get(i)) {
          ChunkPool.give(data.get(i));
        }
      }
      kept.clear();
      places.forEach(ChunkPool::give);
      lengths.forEach(ChunkPool::give);
      data.clear();
      places.clear();
      lengths.clear();
      last = null;
    }
  }
}
