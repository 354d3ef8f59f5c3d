package dev.sluice.ingestion.source.internal.files;

import java.math.BigDecimal;

/**
 * Reads the decimal literals nearly all input has ({@code -?digits[.digits]}, at most 18 digits, no more fraction
 * digits than the column's scale) with long arithmetic, straight to the value {@link TextValues#decimal} gives at
 * the column's scale. Anything else gives null and is left to the {@code BigDecimal} path, which also words every
 * error: parsing each amount through {@code BigDecimal} and rescaling it cost as much as reading the rest of a line.
 */
final class PlainDecimals {
  private static final int MAX_DIGITS = 18;
  private static final long[] POW10 = new long[MAX_DIGITS + 1];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private PlainDecimals() {}

  /** The {@code n} chars of {@code c} from {@code at} as a decimal of that scale and precision, or null. */
  static BigDecimal parse(char[] c, int at, int n, int scale, int precision) {
    int i = at;
    int end = at + n;
    boolean negative = i < end && c[i] == '-';
    if (negative) {
      i++;
    }
    long unscaled = 0;
    int digits = 0;
    int fraction = -1;
    for (; i < end; i++) {
      char ch = c[i];
      if (ch >= '0' && ch <= '9') {
        unscaled = unscaled * 10 + (ch - '0');
        digits++;
        fraction += fraction >= 0 ? 1 : 0;
      } else if (ch == '.' && fraction < 0) {
        fraction = 0;
      } else {
        return null; // an exponent, a sign elsewhere: the BigDecimal path reads it
      }
    }
    int places = Math.max(fraction, 0);
    if (digits == 0 || places > scale || digits + scale - places > MAX_DIGITS) {
      return null;
    }
    unscaled *= POW10[scale - places];
    if (precision <= MAX_DIGITS && unscaled >= POW10[precision]) {
      return null; // too many digits: the BigDecimal path makes the error
    }
    return BigDecimal.valueOf(negative ? -unscaled : unscaled, scale);
  }
}
