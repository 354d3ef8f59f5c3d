package dev.sluice.ingestion.state.internal;

/**
 * The encoding of a state value that is one non-null LONG column ({@link StructCodec}: a null bitmap byte of 0,
 * then the zig-zag varint), which a {@link BytesMap} can keep as a plain {@code long} per slot: a deduplication's
 * expiry. Such a map holds no value arrays (one object fewer per key for the collector to copy and promote), and
 * evicting by the expiry reads the slots in order instead of following a reference per key.
 */
final class LongValues {
  private LongValues() {}

  /** The value's bytes, exactly as the codec writes them. */
  static byte[] encode(long v) {
    byte[] out = new byte[encodedLength(v)];
    long raw = (v << 1) ^ (v >> 63);
    int at = 1;
    while ((raw & ~0x7FL) != 0) {
      out[at++] = (byte) ((raw & 0x7F) | 0x80);
      raw >>>= 7;
    }
    out[at] = (byte) raw;
    return out;
  }

  /** Writes the value's bytes as {@link #encode} makes them. */
  static void write(ByteWriter out, long v) {
    out.writeByte(0);
    out.writeSignedVarLong(v);
  }

  static int encodedLength(long v) {
    long raw = (v << 1) ^ (v >> 63);
    return 1 + Math.max(1, (64 - Long.numberOfLeadingZeros(raw) + 6) / 7);
  }

  /**
   * Whether {@code bytes} is exactly the encoding of a non-null long (a null or another layout is not): one varint
   * ending at the last byte, as short as the value allows. Asked for every record a restart loads, so it makes nothing.
   */
  static boolean fits(byte[] bytes) {
    int last = bytes.length - 1;
    // The tenth varint byte holds the 64th bit alone.
    if (last < 1 || last > 10 || bytes[0] != 0 || (bytes[last] & 0x80) != 0 || (last == 10 && bytes[last] > 1)) {
      return false;
    }
    for (int at = 1; at < last; at++) {
      if ((bytes[at] & 0x80) == 0) {
        return false;
      }
    }
    return encodedLength(decode(bytes)) == bytes.length;
  }

  /** The long of bytes that {@link #fits}. */
  static long decode(byte[] bytes) {
    long raw = 0;
    int shift = 0;
    for (int at = 1; at < bytes.length && shift < 64; at++, shift += 7) {
      raw |= (long) (bytes[at] & 0x7F) << shift;
      if ((bytes[at] & 0x80) == 0) {
        break;
      }
    }
    return (raw >>> 1) ^ -(raw & 1);
  }
}
