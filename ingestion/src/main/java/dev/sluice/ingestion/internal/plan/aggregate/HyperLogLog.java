package dev.sluice.ingestion.internal.plan.aggregate;

/**
 * HyperLogLog registers as Spark's HyperLogLog++ fills them: {@code 2^p} registers, index from the top
 * {@code p} bits of a 64-bit hash, rank from the leading zeros of the rest. The registers are a plain
 * {@code byte[]} (one byte per register) so that they go into state as a binary column.
 *
 * <p>Estimate: Otmar Ertl's improved raw estimator ("New cardinality estimation algorithms for
 * HyperLogLog sketches", 2017), which is unbiased over the whole range without tables. Spark instead
 * corrects the raw estimate with empirical bias tables and switches to linear counting below a
 * threshold; both stay within the requested relative standard deviation, but a count may differ from
 * Spark's by about that much.
 */
final class HyperLogLog {
  /** Spark's smallest precision ("HLL++ requires at least 4 bits for addressing"). */
  static final int MIN_P = 4;
  /** Largest precision accepted here: 256 KiB of registers per group is already a lot of state. */
  static final int MAX_P = 18;

  private HyperLogLog() {}

  /** Spark's precision for a relative standard deviation: {@code ceil(2 log2(1.106 / rsd))}. */
  static int precision(double relativeSd) {
    return (int) Math.ceil(2.0d * Math.log(1.106d / relativeSd) / Math.log(2.0d));
  }

  static byte[] registers(int p) {
    return new byte[1 << p];
  }

  static void add(byte[] registers, long hash) {
    int p = Integer.numberOfTrailingZeros(registers.length);
    int index = (int) (hash >>> (64 - p));
    // The padding bit bounds the rank at 64 - p + 1 when the remaining bits are all zero.
    int rank = Long.numberOfLeadingZeros((hash << p) | (1L << (p - 1))) + 1;
    if (rank > registers[index]) {
      registers[index] = (byte) rank;
    }
  }

  static long estimate(byte[] registers) {
    int m = registers.length;
    int q = 64 - Integer.numberOfTrailingZeros(m);
    int[] histogram = new int[q + 2];
    for (byte r : registers) {
      histogram[r]++;
    }
    double z = m * tau(1.0d - (double) histogram[q + 1] / m);
    for (int k = q; k >= 1; k--) {
      z = 0.5d * (z + histogram[k]);
    }
    z += m * sigma((double) histogram[0] / m);
    return Math.round(m / (2.0d * Math.log(2.0d)) * m / z);
  }

  private static double sigma(double x) {
    if (x == 1.0d) {
      return Double.POSITIVE_INFINITY;
    }
    double y = 1.0d;
    double z = x;
    double previous;
    do {
      x *= x;
      previous = z;
      z += x * y;
      y += y;
    } while (z != previous);
    return z;
  }

  private static double tau(double x) {
    if (x == 0.0d || x == 1.0d) {
      return 0.0d;
    }
    double y = 1.0d;
    double z = 1.0d - x;
    double previous;
    do {
      x = Math.sqrt(x);
      previous = z;
      y *= 0.5d;
      z -= (1.0d - x) * (1.0d - x) * y;
    } while (z != previous);
    return z / 3.0d;
  }
}
