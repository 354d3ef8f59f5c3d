package dev.sluice.ingestion.state.internal;

import java.nio.charset.StandardCharsets;

/**
 * The keys of a RocksDB store's event-time index: 8 bytes of time, ordered as unsigned bytes order them (the
 * sign bit flipped, big-endian), then the entry's key. RocksDB's bytewise order is then (time, key) order, and the
 * entries a watermark expires are a prefix of the column family. The empty key marks an index as complete.
 */
final class TimeIndexKeys {
  static final byte[] COLUMN_FAMILY = "time-index".getBytes(StandardCharsets.UTF_8);
  static final byte[] EMPTY = new byte[0];
  static final byte[] COMPLETE = EMPTY;
  private static final int TIME_BYTES = 8;
  /** Where the first entry's key is, at or after the completeness mark. */
  static final byte[] FIRST = of(Long.MIN_VALUE, EMPTY);

  private TimeIndexKeys() {}

  static byte[] of(long time, byte[] key) {
    byte[] out = new byte[TIME_BYTES + key.length];
    long ordered = time ^ Long.MIN_VALUE;
    for (int i = 0; i < TIME_BYTES; i++) {
      out[i] = (byte) (ordered >>> (56 - 8 * i));
    }
    System.arraycopy(key, 0, out, TIME_BYTES, key.length);
    return out;
  }

  static long time(byte[] indexKey) {
    long ordered = 0;
    for (int i = 0; i < TIME_BYTES; i++) {
      ordered = (ordered << 8) | (indexKey[i] & 0xFF);
    }
    return ordered ^ Long.MIN_VALUE;
  }

  static byte[] key(byte[] indexKey) {
    byte[] out = new byte[indexKey.length - TIME_BYTES];
    System.arraycopy(indexKey, TIME_BYTES, out, 0, out.length);
    return out;
  }
}
