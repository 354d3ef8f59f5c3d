package dev.sluice.table.internal.parquet;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.io.api.Binary;

/**
 * PLAIN-encoded INT64 and BINARY values (a dictionary writer's fall-back: order ids, event times) written straight
 * into one array kept from page to page. Parquet's {@code PlainValuesWriter} puts every value through a little-endian
 * data stream into a slab buffer, a few checked {@code ByteBuffer} calls per value (~3 % of bronze's samples); the
 * bytes are the same, so are the page boundaries ({@link #getBufferedSize} counts exactly what was written). The page
 * store reads {@link #getBytes} before the column writer resets this writer (it copies the page to compress it).
 */
final class PlainWriter extends ValuesWriter {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private byte[] buf;
  private int size;

  PlainWriter(int initialBytes) {
    buf = new byte[Math.max(64, initialBytes)];
  }

  @Override
  public void writeLong(long v) {
    ensure(8);
    LONG.set(buf, size, v);
    size += 8;
  }

  @Override
  public void writeInteger(int v) {
    ensure(4);
    INT.set(buf, size, v);
    size += 4;
  }

  /**
   * The length (4 bytes, little-endian) and the bytes, as PLAIN writes a BYTE_ARRAY. The bytes come through
   * {@link Binary#writeTo(java.io.OutputStream)}, which hands an array-backed value's own array over: its
   * {@code toByteBuffer()} wrapped every value in a new buffer (~7 % of bronze's encoder samples).
   */
  @Override
  public void writeBytes(Binary v) {
    int n = v.length();
    ensure(4 + n);
    INT.set(buf, size, n);
    size += 4;
    try {
      v.writeTo(appender);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // the appender writes to an array: never
    }
  }

  /** Appends to {@link #buf}, which {@link #writeBytes} made large enough first. */
  private final java.io.OutputStream appender = new java.io.OutputStream() {
    @Override
    public void write(int b) {
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }
  };

  @Override
  public long getBufferedSize() {
    return size;
  }

  @Override
  public BytesInput getBytes() {
    return BytesInput.from(buf, 0, size);
  }

  @Override
  public Encoding getEncoding() {
    return Encoding.PLAIN;
  }

  @Override
  public void reset() {
    size = 0;
  }

  @Override
  public void close() {
    size = 0;
  }

  @Override
  public long getAllocatedSize() {
    return buf.length;
  }

  @Override
  public String memUsageString(String prefix) {
    return prefix + " PLAIN " + size + " of " + buf.length + " bytes";
  }

  private void ensure(int n) {
    if (size + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
    }
  }
}
