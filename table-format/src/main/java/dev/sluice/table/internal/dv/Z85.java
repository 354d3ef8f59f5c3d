package dev.sluice.table.internal.dv;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * The Z85 flavour of Base85 (ZeroMQ RFC 32) that Delta uses to put UUIDs and inline deletion vectors in
 * JSON: every 4 bytes, big-endian, become 5 characters. Inline data whose length is not a multiple of 4 is
 * padded with zeros before encoding; the decoder is told the real length.
 */
public final class Z85 {
  private static final char[] ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".toCharArray();
  private static final int[] DIGITS = new int[128];

  static {
    Arrays.fill(DIGITS, -1);
    for (int i = 0; i < ALPHABET.length; i++) {
      DIGITS[ALPHABET[i]] = i;
    }
  }

  private Z85() {}

  /** The first {@code length} bytes that {@code text} encodes. */
  public static byte[] decode(String text, int length) {
    if (text.length() % 5 != 0 || (long) text.length() / 5 * 4 < length) {
      throw new IllegalArgumentException("Z85 text of " + text.length() + " characters cannot hold " + length
          + " bytes");
    }
    ByteBuffer out = ByteBuffer.allocate(text.length() / 5 * 4);
    for (int i = 0; i < text.length(); i += 5) {
      long v = 0;
      for (int j = i; j < i + 5; j++) {
        char c = text.charAt(j);
        int d = c < 128 ? DIGITS[c] : -1;
        if (d < 0) {
          throw new IllegalArgumentException("'" + c + "' at " + j + " is not a Z85 character");
        }
        v = v * 85 + d;
      }
      out.putInt((int) v);
    }
    return Arrays.copyOf(out.array(), length);
  }

  public static String encode(byte[] data) {
    byte[] padded = Arrays.copyOf(data, (data.length + 3) / 4 * 4);
    ByteBuffer in = ByteBuffer.wrap(padded);
    StringBuilder out = new StringBuilder(padded.length / 4 * 5);
    char[] group = new char[5];
    while (in.hasRemaining()) {
      long v = Integer.toUnsignedLong(in.getInt());
      for (int j = 4; j >= 0; j--) {
        group[j] = ALPHABET[(int) (v % 85)];
        v /= 85;
      }
      out.append(group);
    }
    return out.toString();
  }

  /** The UUID of 20 Z85 characters (its 16 bytes, most significant first). */
  public static UUID decodeUuid(String text) {
    ByteBuffer b = ByteBuffer.wrap(decode(text, 16));
    return new UUID(b.getLong(), b.getLong());
  }

  public static String encodeUuid(UUID id) {
    return encode(ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
        .putLong(id.getLeastSignificantBits()).array());
  }
}
