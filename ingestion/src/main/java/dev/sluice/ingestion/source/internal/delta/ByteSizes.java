package dev.sluice.ingestion.source.internal.delta;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses byte sizes written as Spark accepts them: {@code 1048576}, {@code 512k}, {@code 64mb}, {@code 1g}. */
final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)b?");

  private ByteSizes() {}

  static long parse(String option, String value) {
    Matcher m = SIZE.matcher(value.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw DeltaSourceErrors.badValue(option, value, "a size in bytes such as 1048576, 512k, 64m or 1g");
    }
    int shift = switch (m.group(2)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift);
    } catch (ArithmeticException | NumberFormatException e) {
      throw DeltaSourceErrors.badValue(option, value, "a size below 8 exabytes");
    }
  }
}
