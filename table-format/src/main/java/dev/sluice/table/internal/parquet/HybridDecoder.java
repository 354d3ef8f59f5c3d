package dev.sluice.table.internal.parquet;

/**
 * Parquet's RLE / bit-packed hybrid encoding (definition levels, dictionary ids), decoded a run of values at a time
 * into an int array. parquet-java decodes it one value per call through two iterators; a column read whole in bulk
 * spent a fifth of its time there.
 */
final class HybridDecoder {
  private final byte[] data;
  private int pos;
  private final int end;
  private final int bitWidth;
  private final int valueBytes;
  private final long mask;
  /** Values left in the current run. */
  private int left;
  private boolean repeated;
  private int repeatedValue;
  /** Bit position of the next bit-packed value. */
  private long bit;

  HybridDecoder(byte[] data, int offset, int end, int bitWidth) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalArgumentException("Parquet RLE bit width " + bitWidth + " is out of range (0-32)");
    }
    this.data = data;
    this.pos = offset;
    this.end = end;
    this.bitWidth = bitWidth;
    this.valueBytes = (bitWidth + 7) / 8;
    this.mask = bitWidth == 32 ? 0xFFFF_FFFFL : (1L << bitWidth) - 1;
  }

  /** Decodes the next {@code n} values into {@code out[0..n)}. */
  void read(int[] out, int n) {
    int at = 0;
    while (at < n) {
      if (left == 0) {
        nextRun();
      }
      int take = Math.min(n - at, left);
      if (repeated) {
        java.util.Arrays.fill(out, at, at + take, repeatedValue);
      } else {
        for (int i = 0; i < take; i++) {
          out[at + i] = unpack();
        }
      }
      at += take;
      left -= take;
    }
  }

  private void nextRun() {
    if (pos >= end) {
      throw new IllegalStateException("Parquet RLE data ended before its values");
    }
    int header = readVarInt();
    if ((header & 1) == 0) {
      repeated = true;
      left = header >>> 1;
      int v = 0;
      for (int i = 0; i < valueBytes; i++) {
        v |= (data[pos++] & 0xFF) << (8 * i);
      }
      repeatedValue = v;
    } else {
      repeated = false;
      int groups = header >>> 1;
      left = groups * 8;
      bit = (long) pos * 8;
      pos += groups * bitWidth;
    }
    if (left <= 0) {
      throw new IllegalStateException("Parquet RLE run of " + left + " values");
    }
  }

  private int unpack() {
    int byteAt = (int) (bit >>> 3);
    int shift = (int) (bit & 7);
    bit += bitWidth;
    long word = 0;
    int need = (shift + bitWidth + 7) >>> 3;
    for (int i = 0; i < need; i++) {
      int b = byteAt + i;
      // A writer may end the last group's bytes early: missing bytes are padding zeros.
      word |= (long) (b < end ? data[b] & 0xFF : 0) << (8 * i);
    }
    return (int) ((word >>> shift) & mask);
  }

  private int readVarInt() {
    int value = 0;
    int shift = 0;
    while (true) {
      int b = data[pos++] & 0xFF;
      value |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
      shift += 7;
      if (shift > 28) {
        throw new IllegalStateException("Parquet RLE header is not a valid varint");
      }
    }
  }
}
