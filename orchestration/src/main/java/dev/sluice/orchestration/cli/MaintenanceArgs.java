package dev.sluice.orchestration.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The sizes ({@code 128MB}) and durations ({@code 168h}) that {@code optimize} and {@code vacuum} take. */
final class MaintenanceArgs {
  private static final Pattern AMOUNT = Pattern.compile("(\\d+)\\s*([a-z]*)");

  private MaintenanceArgs() {}

  /** Bytes of {@code 134217728}, {@code 512KB}, {@code 128MB}, {@code 1GB} (binary units, as Spark's). */
  static long size(String text, String option) {
    Matcher m = AMOUNT.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      int shift = switch (m.group(2)) {
        case "", "b" -> 0;
        case "k", "kb", "kib" -> 10;
        case "m", "mb", "mib" -> 20;
        case "g", "gb", "gib" -> 30;
        default -> -1;
      };
      long n = Long.parseLong(m.group(1));
      if (shift >= 0 && n > 0 && n <= (Long.MAX_VALUE >> shift)) {
        return n << shift;
      }
    }
    throw CliException.usage(option + " " + text + " is not a positive size; write bytes or a number with KB, MB or GB,"
        + " e.g. " + option + " 128MB");
  }

  /** {@code 168h}, {@code 7d}, {@code 30m}, {@code 90s}, {@code 1w}. */
  static Duration duration(String text, String option) {
    Matcher m = AMOUNT.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      Duration d = switch (m.group(2)) {
        case "s", "sec", "second", "seconds" -> Duration.ofSeconds(n);
        case "m", "min", "minute", "minutes" -> Duration.ofMinutes(n);
        case "h", "hour", "hours" -> Duration.ofHours(n);
        case "d", "day", "days" -> Duration.ofDays(n);
        case "w", "week", "weeks" -> Duration.ofDays(7 * n);
        default -> null;
      };
      if (d != null) {
        return d;
      }
    }
    throw CliException.usage(option + " " + text + " is not a duration; write a number with s, m, h, d or w, e.g. "
        + option + " 168h");
  }

  /** {@code 168h}, {@code 30m}, {@code 45s}: the form --retain takes. */
  static String format(Duration d) {
    if (d.toMillis() % 3_600_000 == 0) {
      return d.toHours() + "h";
    }
    return d.toMillis() % 60_000 == 0 ? d.toMinutes() + "m" : d.toSeconds() + "s";
  }
}
