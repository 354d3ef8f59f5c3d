package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Rows of one schema as a stream of bytes in the state files' row encoding (a null bitmap, then the non-null
 * values), for batches that spill to local disk. Public for {@code ingestion.internal.spill}; not an API.
 */
public final class RowSpillCodec {
  private final StructCodec codec;

  private RowSpillCodec(StructCodec codec) {
    this.codec = codec;
  }

  /** The codec of {@code schema}, or empty when a column has a type the encoding lacks (timestamp_ntz). */
  public static Optional<RowSpillCodec> of(StructType schema) {
    try {
      return Optional.of(new RowSpillCodec(new StructCodec(schema, "row")));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Writes rows to {@code out} (which the caller closes after {@link Writer#flush}). */
  public Writer writer(OutputStream out) {
    return new Writer(out);
  }

  /** Reads the rows a {@link Writer} wrote from {@code in} (which the caller closes). */
  public Reader reader(InputStream in) {
    return new Reader(new ByteReader(in));
  }

  /** Encodes rows through a buffer of its own; counts the bytes written. */
  public final class Writer {
    private static final int DRAIN_BYTES = 64 * 1024;
    private final OutputStream out;
    private final ByteWriter buffer = new ByteWriter(DRAIN_BYTES + 4096);
    private long drained;

    private Writer(OutputStream out) {
      this.out = out;
    }

    /**
     * @throws IllegalArgumentException naming the column when a value doesn't fit its column's type
     */
    public void write(Row row) {
      codec.writeRow(buffer, row);
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

    private Reader(ByteReader in) {
      this.in = in;
    }

    /** The next row; the caller knows how many rows there are. */
    public Row next() {
      try {
        return codec.readRow(in);
      } catch (IOException e) {
        throw new UncheckedIOException("Can't read a batch's spill file back: " + e.getMessage(), e);
      }
    }
  }
}
