package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Rows of one schema as a stream of bytes for batches that spill to local disk, in blocks of {@code blockRows} rows
 * stored column by column: a block is its row count, then per column its length in bytes, a null bitmap and a bitmap
 * of the rows equal to the row before for the block's rows, then the other values in the state files' value encoding.
 * A pass that reads a few columns (most passes over a spilled batch do) skips each other column of a block with one
 * jump, where a row-major layout parsed every value of every row to get past it. A column that repeats (a bronze row's
 * source file, batch id, ingestion time) is neither written nor decoded again, and the rows read back share one value
 * object. Each block decodes on its own (its first row repeats nothing), so a reader may start at any block. Public
 * for {@code ingestion.internal.spill}; not an API.
 */
public final class RowSpillCodec {
  private final StructType schema;
  private final ValueCodec[] fields;
  private final boolean[] comparable;
  private final int blockRows;

  private RowSpillCodec(StructType schema, int blockRows) {
    this.schema = schema;
    this.blockRows = blockRows;
    this.fields = new ValueCodec[schema.size()];
    this.comparable = new boolean[schema.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = ValueCodecs.forSpill(schema.field(i).type(), "row." + schema.field(i).name());
      comparable[i] = schema.field(i).type() instanceof PrimitiveType;
    }
  }

  /**
   * The codec of {@code schema} for blocks of {@code blockRows} rows, or empty when a column has a type the
   * encoding lacks (timestamp_ntz).
   */
  public static Optional<RowSpillCodec> of(StructType schema, int blockRows) {
    try {
      return Optional.of(new RowSpillCodec(schema, blockRows));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Writes rows to {@code out} (which the caller closes after {@link Writer#flush}). */
  public Writer writer(OutputStream out) {
    return new Writer(out);
  }

  /** Reads the rows a {@link Writer} wrote from {@code in}, starting at a block's first row (the caller closes it). */
  public Reader reader(InputStream in) {
    return new Reader(new ByteReader(in), null);
  }

  /**
   * The same, decoding only the columns set in {@code wanted} (the others read null): a pass over a few columns
   * makes no objects for the rest and skips their bytes block by block.
   */
  public Reader reader(InputStream in, boolean[] wanted) {
    if (wanted != null && wanted.length != fields.length) {
      throw new IllegalArgumentException("Wanted " + wanted.length + " columns of a schema of " + fields.length);
    }
    return new Reader(new ByteReader(in), wanted);
  }

  /** Primitive values only: equal is cheap to test, and a shared immutable object is safe to hand out twice. */
  private boolean repeats(int i, Object v, Object p) {
    return comparable[i] && p != null && (p == v || (p.getClass() == v.getClass() && !(v instanceof byte[])
        && p.equals(v)));
  }

  /** Encodes rows a block at a time through a buffer of its own; counts the bytes written. */
  public final class Writer {
    private static final int DRAIN_BYTES = 64 * 1024;
    private final OutputStream out;
    private final ByteWriter buffer = new ByteWriter(DRAIN_BYTES + 4096);
    private final Row[] block = new Row[blockRows];
    private int pending;
    private long drained;

    private Writer(OutputStream out) {
      this.out = out;
    }

    /**
     * Adds a row; a block is encoded once it is full (or at {@link #flush}).
     *
     * @throws IllegalArgumentException naming the column when a value doesn't fit its column's type (perhaps of a row
     *     added before, in the same block)
     */
    public void write(Row row) {
      if (row.size() != fields.length) {
        throw new IllegalArgumentException("A spilled row has " + row.size() + " values but its schema "
            + schema.fieldNames() + " has " + fields.length + " columns");
      }
      block[pending++] = row;
      if (pending == blockRows) {
        writeBlock();
      }
    }

    /** Bytes written so far (the offset of the next block, when called between blocks). */
    public long position() {
      return drained + buffer.position();
    }

    public void flush() {
      writeBlock();
      drain();
      try {
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("Can't write a batch's spill file: " + e.getMessage(), e);
      }
    }

    private void writeBlock() {
      if (pending == 0) {
        return;
      }
      int rows = pending;
      buffer.writeVarLong(rows);
      int n = NullBitmap.bytes(rows);
      for (int i = 0; i < fields.length; i++) {
        int length = buffer.position();
        buffer.writeFixedInt(0);
        int nulls = buffer.position();
        buffer.writeZeros(2 * n);
        int same = nulls + n;
        Object previous = null;
        for (int r = 0; r < rows; r++) {
          Object v = block[r].get(i);
          if (v == null) {
            NullBitmap.setNull(buffer, nulls, r);
          } else if (repeats(i, v, previous)) {
            NullBitmap.setNull(buffer, same, r);
          } else {
            try {
              fields[i].write(buffer, v);
            } catch (ClassCastException | NullPointerException e) {
              throw new IllegalArgumentException("Spilled column '" + schema.field(i).name() + "' has type "
                  + schema.field(i).type() + " but holds a " + v.getClass().getName(), e);
            }
          }
          previous = v;
        }
        buffer.setFixedInt(length, buffer.position() - nulls);
      }
      Arrays.fill(block, 0, rows, null);
      pending = 0;
      if (buffer.position() >= DRAIN_BYTES) {
        drain();
      }
    }

    private void drain() {
      drained += buffer.position();
      try {
        buffer.drainTo(out);
      } catch (IOException e) {
        throw new UncheckedIOException("Can't write a batch's spill file (is the spill directory's disk full?): "
            + e.getMessage(), e);
      }
    }
  }

  /**
   * Decodes rows one after the other, a block at a time. A block decodes column by column into one array per column,
   * and {@link #next} gathers a row from them: filling the block's 1,024 row arrays column by column instead touched
   * each row's array once per column, and those scattered stores were the largest share of a spilled batch's reads.
   */
  public final class Reader {
    private final ByteReader in;
    private final boolean[] wanted;
    private final Object[][] columns;
    private byte[] bitmaps = new byte[0];
    private int rows;
    private int next;

    private Reader(ByteReader in, boolean[] wanted) {
      this.in = in;
      this.wanted = wanted;
      this.columns = new Object[fields.length][];
    }

    /** The next row; the caller knows how many rows there are. */
    public Row next() {
      if (next == rows) {
        try {
          readBlock();
        } catch (IOException e) {
          throw new UncheckedIOException("Can't read a batch's spill file back: " + e.getMessage(), e);
        }
      }
      Object[] values = new Object[fields.length];
      int r = next++;
      for (int i = 0; i < values.length; i++) {
        Object[] column = columns[i];
        if (column != null) {
          values[i] = column[r];
        }
      }
      return Row.of(values);
    }

    private void readBlock() throws IOException {
      rows = (int) in.readVarLong();
      next = 0;
      int n = NullBitmap.bytes(rows);
      if (bitmaps.length < 2 * n) {
        bitmaps = new byte[2 * n];
      }
      for (int i = 0; i < fields.length; i++) {
        int length = in.readFixedInt();
        if (wanted != null && !wanted[i]) {
          in.skip(length);
          continue;
        }
        Object[] column = columns[i];
        if (column == null || column.length < rows) {
          column = new Object[rows];
          columns[i] = column;
        }
        in.readFully(bitmaps, 2 * n);
        ValueCodec codec = fields[i];
        Object previous = null;
        for (int r = 0; r < rows; r++) {
          Object v = null;
          if (!NullBitmap.isNull(bitmaps, r)) {
            v = NullBitmap.isNull(bitmaps, n * 8 + r) ? previous : codec.read(in);
          }
          column[r] = v;
          previous = v;
        }
      }
    }
  }
}
