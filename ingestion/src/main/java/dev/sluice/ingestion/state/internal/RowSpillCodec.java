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
 * Rows of one schema as a stream of bytes for batches that spill to local disk: per row a null bitmap, a bitmap
 * of the columns equal to the row before, then the other values in the state files' value encoding. A column that
 * repeats (a bronze row's source file, batch id, ingestion time) is then neither written nor decoded again, and
 * the rows read back share one value object. Rows form blocks of {@code blockRows} that decode on their own (the
 * first row of a block repeats nothing), so a reader may start at any block. Public for
 * {@code ingestion.internal.spill}; not an API.
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
   * makes no objects for the rest.
   */
  public Reader reader(InputStream in, boolean[] wanted) {
    if (wanted != null && wanted.length != fields.length) {
      throw new IllegalArgumentException("Wanted " + wanted.length + " columns of a schema of " + fields.length);
    }
    return new Reader(new ByteReader(in), wanted);
  }

  /** Primitive values only: equal is cheap to test, and a shared immutable object is safe to hand out twice. */
  private boolean repeats(int i, Object v, Object[] previous) {
    Object p = previous[i];
    return comparable[i] && p != null && (p == v || (p.getClass() == v.getClass() && !(v instanceof byte[])
        && p.equals(v)));
  }

  /** Encodes rows through a buffer of its own; counts the bytes written. */
  public final class Writer {
    private static final int DRAIN_BYTES = 64 * 1024;
    private final OutputStream out;
    private final ByteWriter buffer = new ByteWriter(DRAIN_BYTES + 4096);
    private final Object[] previous = new Object[fields.length];
    private long drained;
    private int rows;

    private Writer(OutputStream out) {
      this.out = out;
    }

    /**
     * @throws IllegalArgumentException naming the column when a value doesn't fit its column's type
     */
    public void write(Row row) {
      if (row.size() != fields.length) {
        throw new IllegalArgumentException("A spilled row has " + row.size() + " values but its schema "
            + schema.fieldNames() + " has " + fields.length + " columns");
      }
      if (rows++ % blockRows == 0) {
        Arrays.fill(previous, null);
      }
      int n = NullBitmap.bytes(fields.length);
      int nulls = buffer.position();
      buffer.writeZeros(2 * n);
      int same = nulls + n;
      for (int i = 0; i < fields.length; i++) {
        Object v = row.get(i);
        if (v == null) {
          NullBitmap.setNull(buffer, nulls, i);
        } else if (repeats(i, v, previous)) {
          NullBitmap.setNull(buffer, same, i);
        } else {
          try {
            fields[i].write(buffer, v);
          } catch (ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException("Spilled column '" + schema.field(i).name() + "' has type "
                + schema.field(i).type() + " but holds a " + v.getClass().getName(), e);
          }
        }
        previous[i] = v;
      }
      if (buffer.position() >= DRAIN_BYTES) {
        drain();
      }
    }

    /** Bytes written so far, buffered ones included (the offset of the next row). */
    public long position() {
      return drained + buffer.position();
    }

    public void flush() {
      drain();
      try {
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("Can't write a batch's spill file: " + e.getMessage(), e);
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

  /** Decodes rows one after the other. */
  public final class Reader {
    private final ByteReader in;
    private final boolean[] wanted;
    private final Object[] previous = new Object[fields.length];
    // Reused: a pass decodes millions of rows, and a new array per row was garbage for the collector.
    private final byte[] bitmaps = new byte[2 * NullBitmap.bytes(fields.length)];
    private int rows;

    private Reader(ByteReader in, boolean[] wanted) {
      this.in = in;
      this.wanted = wanted;
    }

    /** The next row; the caller knows how many rows there are. */
    public Row next() {
      try {
        if (rows++ % blockRows == 0) {
          Arrays.fill(previous, null);
        }
        int n = NullBitmap.bytes(fields.length);
        in.readFully(bitmaps, 2 * n);
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
          if (NullBitmap.isNull(bitmaps, i)) {
            continue;
          }
          boolean repeat = NullBitmap.isNull(bitmaps, n * 8 + i);
          if (wanted != null && !wanted[i]) {
            if (!repeat) {
              fields[i].skip(in);
            }
          } else {
            // A wanted column is decoded in every row, so the row before always holds the value it repeats.
            values[i] = repeat ? previous[i] : fields[i].read(in);
          }
        }
        System.arraycopy(values, 0, previous, 0, values.length);
        return Row.of(values);
      } catch (IOException e) {
        throw new UncheckedIOException("Can't read a batch's spill file back: " + e.getMessage(), e);
      }
    }
  }
}
