package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The layout of {@code .delta} and {@code .snapshot} files: a 7-byte header ({@code SLST}, format
 * version, kind 'D' or 'S', compression id), then the compressed body: records
 * ({@code 1 key value} = put, {@code 2 key} = remove, {@code 3 column time} = remove every entry whose time, the
 * value's LONG {@code column}, is at most {@code time}: an eviction under a watermark, which the in-memory store
 * writes as one record instead of one per evicted key; snapshots hold only puts), an end tag
 * {@code 0} and the record count, so that a truncated file is detected rather than read as a
 * smaller state.
 */
final class StateFileFormat {
  static final int FORMAT_VERSION = 1;
  static final byte DELTA = 'D';
  static final byte SNAPSHOT = 'S';
  private static final byte[] MAGIC = "SLST".getBytes(StandardCharsets.US_ASCII);
  private static final int TAG_END = 0;
  private static final int TAG_PUT = 1;
  private static final int TAG_REMOVE = 2;
  private static final int TAG_REMOVE_UP_TO = 3;
  private static final int FLUSH_AT = 64 * 1024;

  private StateFileFormat() {}

  /** Receives the records of a file in order, as their encoded key and value (what the store keeps in memory). */
  interface Visitor {
    void put(byte[] key, byte[] value);

    void remove(byte[] key);

    /**
     * Removes every entry whose time (the value's LONG {@code column}; null: never) is at most {@code upToMicros}, as
     * {@link dev.sluice.ingestion.state.StateStore#removeUpTo} did when the batch ran. Only the in-memory store writes
     * it, and only into deltas.
     */
    default void removeUpTo(int column, long upToMicros) {
      throw new UnsupportedOperationException("a state file record removes every entry up to a time, which only the"
          + " in-memory store's deltas hold");
    }
  }

  /** Builds one file: in the heap while small, then in a local spill file (see {@link StateFileContent}). */
  static final class Writer {
    private final StateFileContent file = new StateFileContent();
    private final OutputStream body;
    private final ByteWriter buf = new ByteWriter(FLUSH_AT + 4096);
    private final StructCodec keys;
    private final StructCodec values;
    private long records;

    Writer(byte kind, Compression compression, StructCodec keys, StructCodec values) {
      this.keys = keys;
      this.values = values;
      try {
        file.write(MAGIC);
        file.write(FORMAT_VERSION);
        file.write(kind);
        file.write(compression.id);
        body = compression.compress(file);
      } catch (IOException e) {
        throw new IllegalStateException("Starting " + compression + " compression failed: " + e, e);
      }
    }

    /** Returns the encoded size of key and value. */
    int put(Row key, Row value) {
      buf.writeByte(TAG_PUT);
      int start = buf.position();
      keys.writeRow(buf, key);
      values.writeRow(buf, value);
      int size = buf.position() - start;
      recordDone();
      return size;
    }

    void remove(Row key) {
      buf.writeByte(TAG_REMOVE);
      keys.writeRow(buf, key);
      recordDone();
    }

    /** A put of a key and value already encoded with this file's codecs (copied as they are). */
    void putEncoded(byte[] key, byte[] value) {
      buf.writeByte(TAG_PUT);
      buf.writeBytes(key);
      buf.writeBytes(value);
      recordDone();
    }

    /** A put of an encoded key whose value is one long ({@link LongValues}), written without an array for it. */
    void putEncodedLong(byte[] key, long value) {
      buf.writeByte(TAG_PUT);
      buf.writeBytes(key);
      LongValues.write(buf, value);
      recordDone();
    }

    void removeEncoded(byte[] key) {
      buf.writeByte(TAG_REMOVE);
      buf.writeBytes(key);
      recordDone();
    }

    /** Every entry whose time, the value's LONG {@code column}, is at most {@code upToMicros} goes. */
    void removeUpTo(int column, long upToMicros) {
      buf.writeByte(TAG_REMOVE_UP_TO);
      buf.writeVarLong(column);
      buf.writeSignedVarLong(upToMicros);
      recordDone();
    }

    /** The whole file, to write with {@link StateFileContent#writeTo}; the writer must not be used afterwards. */
    StateFileContent finish() {
      buf.writeByte(TAG_END);
      buf.writeVarLong(records);
      try (OutputStream out = body) {
        buf.drainTo(out);
      } catch (IOException e) {
        throw new IllegalStateException("Compressing a state file failed: " + e, e);
      }
      file.records(records);
      return file;
    }

    /** Drops what was written (an aborted version's changelog). */
    void discard() {
      file.discard();
    }

    private void recordDone() {
      records++;
      if (buf.position() >= FLUSH_AT) {
        try {
          buf.drainTo(body);
        } catch (IOException e) {
          throw new IllegalStateException("Compressing a state file failed: " + e, e);
        }
      }
    }
  }

  /**
   * Reads a whole file into {@code visitor}.
   *
   * @throws IOException when the file is not a state file of {@code kind}, is truncated or corrupt
   */
  static void read(InputStream raw, byte kind, StructCodec keys, StructCodec values, Visitor visitor)
      throws IOException {
    byte[] header = raw.readNBytes(MAGIC.length + 3);
    if (header.length < MAGIC.length + 3 || !startsWithMagic(header)) {
      throw new IOException("it does not start with the state file header 'SLST'");
    }
    if (header[4] != FORMAT_VERSION) {
      throw new IOException("its format version is " + header[4] + " but this Sluice reads version "
          + FORMAT_VERSION + " (written by a newer Sluice?)");
    }
    if (header[5] != kind) {
      throw new IOException("its header says kind '" + (char) header[5] + "' but '" + (char) kind + "' was expected");
    }
    try (InputStream body = Compression.ofId(header[6]).decompress(raw)) {
      readRecords(new ByteReader(body), keys, values, visitor);
    }
  }

  private static void readRecords(ByteReader in, StructCodec keys, StructCodec values, Visitor visitor)
      throws IOException {
    long records = 0;
    while (true) {
      int tag = in.readByte();
      if (tag == TAG_END) {
        break;
      }
      if (tag == TAG_REMOVE_UP_TO) {
        int column = (int) in.readVarLong();
        visitor.removeUpTo(column, in.readSignedVarLong());
        records++;
        continue;
      }
      if (tag != TAG_PUT && tag != TAG_REMOVE) {
        throw new IOException("record " + records + " has the unknown tag " + tag);
      }
      // Decoding checks each record and finds where it ends; the store keeps the bytes themselves.
      in.mark();
      keys.readRow(in);
      byte[] key = in.sinceMark();
      if (tag == TAG_PUT) {
        in.mark();
        values.readRow(in);
        visitor.put(key, in.sinceMark());
      } else {
        visitor.remove(key);
      }
      records++;
    }
    long expected = in.readVarLong();
    if (expected != records) {
      throw new IOException("it holds " + records + " records but its trailer says " + expected);
    }
    if (!in.atEnd()) {
      throw new IOException("it has bytes after its trailer");
    }
  }

  private static boolean startsWithMagic(byte[] header) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (header[i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }
}
