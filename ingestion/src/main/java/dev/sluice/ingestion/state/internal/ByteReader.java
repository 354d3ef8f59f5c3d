package dev.sluice.ingestion.state.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Reads what {@link ByteWriter} wrote from a stream, through its own buffer; counts bytes consumed. */
final class ByteReader {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private final InputStream in;
  private byte[] buf = new byte[64 * 1024];
  private int pos;
  private int limit;
  private long consumedBefore;
  /** Where the bytes being recorded start in {@code buf}, or -1; refills keep them. */
  private int mark = -1;

  ByteReader(InputStream in) {
    this.in = in;
  }

  /** A reader of bytes already in memory (an encoded state key or value); reset it with {@link #reset}. */
  ByteReader() {
    this.in = null;
    this.buf = new byte[0];
  }

  /** Reads {@code bytes} from the start (only for a reader made with {@link #ByteReader()}). */
  void reset(byte[] bytes) {
    buf = bytes;
    pos = 0;
    limit = bytes.length;
    consumedBefore = 0;
    mark = -1;
  }

  /** Starts recording: {@link #sinceMark} returns the bytes consumed from here. */
  void mark() {
    mark = pos;
  }

  /** A copy of the bytes consumed since {@link #mark}. */
  byte[] sinceMark() {
    return java.util.Arrays.copyOfRange(buf, mark, pos);
  }

  /** Bytes consumed since the start of the stream. */
  long consumed() {
    return consumedBefore + pos;
  }

  int readByte() throws IOException {
    require(1);
    return buf[pos++] & 0xFF;
  }

  byte[] readBytes(int n) throws IOException {
    require(n);
    byte[] out = new byte[n];
    System.arraycopy(buf, pos, out, 0, n);
    pos += n;
    return out;
  }

  /** Reads the next {@code n} bytes into the start of {@code into}. */
  void readFully(byte[] into, int n) throws IOException {
    require(n);
    System.arraycopy(buf, pos, into, 0, n);
    pos += n;
  }

  /** Moves past {@code n} bytes, reading through the buffer rather than growing it to hold them. */
  void skip(int n) throws IOException {
    while (n > limit - pos) {
      n -= limit - pos;
      pos = limit;
      require(1);
    }
    pos += n;
  }

  byte[] readLengthPrefixed() throws IOException {
    return readBytes(readLength());
  }

  /** {@code n} bytes (1 to 8) of a big-endian two's-complement integer, as {@code BigInteger.toByteArray} writes. */
  long readBigEndianLong(int n) throws IOException {
    require(n);
    long v = buf[pos++];
    for (int i = 1; i < n; i++) {
      v = (v << 8) | (buf[pos++] & 0xFF);
    }
    return v;
  }

  String readUtf8() throws IOException {
    int n = readLength();
    require(n);
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  long readVarLong() throws IOException {
    if (limit - pos >= 10) {
      // The common case, with the whole varint buffered: no bounds check per byte.
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = buf[pos++];
        result |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return result;
        }
      }
      throw new IOException("a varint is longer than 10 bytes");
    }
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IOException("a varint is longer than 10 bytes");
  }

  long readSignedVarLong() throws IOException {
    long v = readVarLong();
    return (v >>> 1) ^ -(v & 1);
  }

  int readFixedInt() throws IOException {
    require(4);
    int v = (int) INT.get(buf, pos);
    pos += 4;
    return v;
  }

  long readFixedLong() throws IOException {
    require(8);
    long v = (long) LONG.get(buf, pos);
    pos += 8;
    return v;
  }

  /** True when the stream has no more bytes. */
  boolean atEnd() throws IOException {
    return pos == limit && !fill(1);
  }

  int readLength() throws IOException {
    long n = readVarLong();
    if (n < 0 || n > Integer.MAX_VALUE - 16) {
      throw new IOException("a length of " + n + " bytes is not plausible");
    }
    return (int) n;
  }

  private void require(int n) throws IOException {
    if (limit - pos < n && !fill(n)) {
      throw new EOFException("the data ends in the middle of a record");
    }
  }

  /** Makes at least {@code n} bytes available from {@code pos}; false if the stream ends first. */
  private boolean fill(int n) throws IOException {
    if (in == null) {
      return false; // the bytes in memory are all there is (and belong to the caller: never compact them)
    }
    int keep = mark >= 0 ? mark : pos;
    if (keep > 0) {
      System.arraycopy(buf, keep, buf, 0, limit - keep);
      consumedBefore += keep;
      limit -= keep;
      pos -= keep;
      if (mark >= 0) {
        mark = 0;
      }
    }
    if (pos + n > buf.length) {
      buf = java.util.Arrays.copyOf(buf, Math.max(pos + n, buf.length * 2));
    }
    while (limit < pos + n) {
      int read = in.read(buf, limit, buf.length - limit);
      if (read < 0) {
        return false;
      }
      limit += read;
    }
    return true;
  }
}
