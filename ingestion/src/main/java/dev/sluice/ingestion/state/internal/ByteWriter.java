package dev.sluice.ingestion.state.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer with the primitive encodings of state files (LEB128 varints, zig-zag for
 * signed numbers, big-endian fixed widths). Unsynchronised, unlike the JDK's byte streams, because
 * a commit writes millions of small fields.
 */
final class ByteWriter {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private byte[] buf;
  private int pos;

  ByteWriter(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  int position() {
    return pos;
  }

  void reset() {
    pos = 0;
  }

  void writeByte(int b) {
    ensure(1);
    buf[pos++] = (byte) b;
  }

  /** Overwrites a byte already written, e.g. a null bitmap reserved before the values. */
  void setByte(int at, int b) {
    buf[at] = (byte) b;
  }

  int byteAt(int at) {
    return buf[at] & 0xFF;
  }

  void writeZeros(int n) {
    ensure(n);
    Arrays.fill(buf, pos, pos + n, (byte) 0);
    pos += n;
  }

  void writeBytes(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  /**
   * A string as {@link #writeLengthPrefixed} writes its UTF-8 bytes. An ASCII string of fewer than 128 chars (keys,
   * ids, codes) is copied char by char into the buffer: no byte array per value (a dedup key is encoded once per
   * input row).
   */
  void writeUtf8(String s) {
    int n = s.length();
    if (n < 128) {
      ensure(n + 1);
      int at = pos + 1;
      int i = 0;
      while (i < n) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          break;
        }
        buf[at + i++] = (byte) c;
      }
      if (i == n) {
        buf[pos] = (byte) n;
        pos = at + n;
        return;
      }
    }
    writeLengthPrefixed(s.getBytes(StandardCharsets.UTF_8));
  }

  /** Length as a varint, then the bytes. */
  void writeLengthPrefixed(byte[] bytes) {
    writeVarLong(bytes.length);
    writeBytes(bytes);
  }

  /** Unsigned LEB128: 1 byte below 128, at most 10. */
  void writeVarLong(long value) {
    ensure(10);
    long v = value;
    while ((v & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
  }

  /** Zig-zag then LEB128, so that small negative numbers stay short too. */
  void writeSignedVarLong(long value) {
    writeVarLong((value << 1) ^ (value >> 63));
  }

  /** The low {@code bytes} bytes of {@code v}, big-endian. */
  void writeBigEndianLong(long v, int bytes) {
    ensure(bytes);
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
      buf[pos++] = (byte) (v >>> shift);
    }
  }

  /** Eight bytes, big-endian, in one store (what the state files' header and the spill's timestamps use). */
  void writeFixedLong(long v) {
    ensure(8);
    LONG.set(buf, pos, v);
    pos += 8;
  }

  void writeFixedInt(int v) {
    ensure(4);
    INT.set(buf, pos, v);
    pos += 4;
  }

  /** Overwrites four bytes already written, e.g. a length reserved before what it measures. */
  void setFixedInt(int at, int v) {
    INT.set(buf, at, v);
  }

  /** The buffer itself (valid up to {@link #position()} until the next write), for lookups without a copy. */
  byte[] buffer() {
    return buf;
  }

  /** A copy of bytes {@code [from, position())}. */
  byte[] copyFrom(int from) {
    return Arrays.copyOfRange(buf, from, pos);
  }

  /** A copy of the bytes written. */
  byte[] toByteArray() {
    return Arrays.copyOf(buf, pos);
  }

  /** Writes everything buffered to {@code out} and empties the buffer. */
  void drainTo(OutputStream out) throws IOException {
    out.write(buf, 0, pos);
    pos = 0;
  }

  private void ensure(int n) {
    if (pos + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
    }
  }
}
