package dev.sluice.ingestion.state.internal;

/** One bit per position, set when the value is null, written before the values it describes. */
final class NullBitmap {
  private NullBitmap() {}

  static int bytes(int positions) {
    return (positions + 7) >>> 3;
  }

  static void setNull(ByteWriter out, int bitmapStart, int position) {
    int at = bitmapStart + (position >>> 3);
    out.setByte(at, out.byteAt(at) | (1 << (position & 7)));
  }

  static boolean isNull(byte[] bitmap, int position) {
    return (bitmap[position >>> 3] & (1 << (position & 7))) != 0;
  }
}
