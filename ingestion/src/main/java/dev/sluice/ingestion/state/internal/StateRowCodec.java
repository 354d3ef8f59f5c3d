package dev.sluice.ingestion.state.internal;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import java.io.IOException;

/**
 * Turns state rows into the bytes a store keeps (the state file encoding, so commits copy them to
 * files as they are) and back. Keys are encoded into a reused buffer for lookups; values into arrays
 * of their own. Equal rows encode to equal bytes (for rows without maps, see {@link StructCodec}), which
 * is what makes byte equality key equality. One per store: it reuses its buffers.
 */
final class StateRowCodec {
  private final StructCodec keys;
  private final StructCodec values;
  private final ByteWriter keyBuffer = new ByteWriter(256);
  private final ByteWriter valueBuffer = new ByteWriter(256);
  private final ByteReader reader = new ByteReader();
  private final boolean firstValueIsLong;
  private final int valueBitmapBytes;

  StateRowCodec(StructCodec keys, StructCodec values) {
    this.keys = keys;
    this.values = values;
    this.firstValueIsLong = values.type().size() > 0 && values.type().field(0).type() == PrimitiveType.LONG;
    this.valueBitmapBytes = NullBitmap.bytes(values.type().size());
  }

  /** Encodes {@code key} into {@link #keyBytes()} and returns its length. */
  int encodeKey(Row key) {
    keyBuffer.reset();
    keys.writeRow(keyBuffer, key);
    return keyBuffer.position();
  }

  /** The buffer of the last {@link #encodeKey}, valid until the next call. */
  byte[] keyBytes() {
    return keyBuffer.buffer();
  }

  byte[] encodeValue(Row value) {
    valueBuffer.reset();
    values.writeRow(valueBuffer, value);
    return valueBuffer.toByteArray();
  }

  /**
   * Whether {@link #firstValueLong} reads the value's column {@code column}: the first column, of type LONG. A store
   * uses it to evict by a time in the value without decoding every value.
   */
  boolean readsFirstValueLong(int column) {
    return column == 0 && firstValueIsLong;
  }

  /**
   * The first column of an encoded value, a LONG ({@link #readsFirstValueLong}), read in place: the null bitmap,
   * then the zig-zag varint ({@link ValueCodecs}); {@link Long#MAX_VALUE} when null.
   */
  long firstValueLong(byte[] bytes) {
    if ((bytes[0] & 1) != 0) {
      return Long.MAX_VALUE;
    }
    int at = valueBitmapBytes;
    long raw = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = bytes[at++];
      raw |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    return (raw >>> 1) ^ -(raw & 1);
  }

  Row decodeKey(byte[] bytes) {
    return decode(keys, bytes);
  }

  Row decodeValue(byte[] bytes) {
    return decode(values, bytes);
  }

  private Row decode(StructCodec codec, byte[] bytes) {
    reader.reset(bytes);
    try {
      return codec.readRow(reader);
    } catch (IOException e) {
      // The bytes were encoded by this codec in this process: failing to read them is a bug, not bad input.
      throw new IllegalStateException("A state entry encoded in memory can't be decoded: " + e, e);
    }
  }
}
