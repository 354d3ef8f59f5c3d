package dev.sluice.ingestion.internal.plan.aggregate;

/**
 * HyperLogLog registers as Spark's HyperLogLog++ fills them: {@code 2^p} registers, index from the top
 * {@code p} bits of a 64-bit hash, rank from the leading zeros of the rest. The registers are a plain
 * {@code byte[]} (one byte per register) so that they go into state as a binary column.
 *
 * <p>Estimate: the raw HyperLogLog estimate, with linear counting while it is below {@code 2.5 m} and
 * some register is still empty. Spark also subtracts an empirical bias table in that range; without
 * the table the error stays within the requested relative standard deviation, but a count may differ
 * from Spark's by a few percent.
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
    double inverseSum = 0;
    int zeros = 0;
    for (byte r : registers) {
      inverseSum += 1.0d / (1L << r);
      if (r == 0) {
        zeros++;
      }
    }
    double raw = alpha(m) * m * m / inverseSum;
    if (raw <= 2.5d * m && zeros > 0) {
      return Math.round(m * Math.log((double) m / zeros));
    }
    return Math.round(raw);
  }

  private static double alpha(int m) {
    return switch (m) {
      case 16 -> 0.673d;
      case 32 -> 0.697d;
      case 64 -> 0.709d;
      default -> 0.7213d / (1.0d + 1.079d / m);
    };
  }
}
