package dev.sluice.ingestion.internal.runner;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses byte sizes such as {@code 1048576}, {@code 512k}, {@code 10m}, {@code 1g} (Spark's forms). */
public final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)b?");

  private ByteSizes() {}

  public static long parse(String key, String text) {
    Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("Option " + key + " must be a size such as 1048576, 512k, 10m or 1g, got '"
          + text + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "k" -> n << 10;
      case "m" -> n << 20;
      case "g" -> n << 30;
      case "t" -> n << 40;
      default -> n;
    };
  }
}
