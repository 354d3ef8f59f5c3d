package dev.sluice.ingestion.internal.plan.aggregate;

/**
 * XXH64 (Yann Collet's xxHash, 64-bit), the hash Spark's {@code approx_count_distinct} uses; written
 * out here rather than adding a dependency for forty lines. Input is read little-endian, as the
 * reference implementation does.
 */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  /** The hash of the 8 little-endian bytes of {@code value} (Spark's {@code hashLong}). */
  static long hashLong(long value, long seed) {
    long h = seed + P5 + 8;
    h ^= round(0, value);
    h = Long.rotateLeft(h, 27) * P1 + P4;
    return avalanche(h);
  }

  /** The hash of the 4 little-endian bytes of {@code value} (Spark's {@code hashInt}). */
  static long hashInt(int value, long seed) {
    long h = seed + P5 + 4;
    h ^= (value & 0xFFFFFFFFL) * P1;
    h = Long.rotateLeft(h, 23) * P2 + P3;
    return avalanche(h);
  }

  static long hash(byte[] b, long seed) {
    int n = b.length;
    int i = 0;
    long h;
    if (n >= 32) {
      long v1 = seed + P1 + P2;
      long v2 = seed + P2;
      long v3 = seed;
      long v4 = seed - P1;
      for (; i <= n - 32; i += 32) {
        v1 = round(v1, readLong(b, i));
        v2 = round(v2, readLong(b, i + 8));
        v3 = round(v3, readLong(b, i + 16));
        v4 = round(v4, readLong(b, i + 24));
      }
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = seed + P5;
    }
    h += n;
    for (; i + 8 <= n; i += 8) {
      h ^= round(0, readLong(b, i));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (i + 4 <= n) {
      h ^= (readInt(b, i) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      i += 4;
    }
    for (; i < n; i++) {
      h ^= (b[i] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    return avalanche(h);
  }

  private static long round(long acc, long input) {
    return Long.rotateLeft(acc + input * P2, 31) * P1;
  }

  private static long merge(long acc, long v) {
    return (acc ^ round(0, v)) * P1 + P4;
  }

  private static long avalanche(long h) {
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    return h ^ (h >>> 32);
  }

  private static long readLong(byte[] b, int i) {
    return (readInt(b, i) & 0xFFFFFFFFL) | ((long) readInt(b, i + 4) << 32);
  }

  private static int readInt(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }
}
