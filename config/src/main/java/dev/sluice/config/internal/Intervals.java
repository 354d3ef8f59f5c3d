package dev.sluice.config.internal;

import dev.sluice.config.Interval;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses interval strings with the engine's grammar ({@code 500 ms}, {@code 30 seconds}, {@code 1 minute}). */
final class Intervals {
  // Same grammar as dev.sluice.ingestion.Durations, so Interval.text() can be handed to the engine unchanged.
  private static final Pattern INTERVAL = Pattern.compile("(?:interval\\s+)?(\\d+)\\s*([a-z]+)");
  static final String FORMS = "write a number and a unit, e.g. `500 ms`, `30 seconds`, `5 minutes`, `1 hour`, `7 days`";

  private Intervals() {}

  /** @throws IllegalArgumentException saying what is wrong with the text */
  static Interval parse(String text) {
    Matcher m = INTERVAL.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("`" + text + "` is not an interval");
    }
    long n = Long.parseLong(m.group(1));
    return new Interval(text.strip(), duration(n, m.group(2)));
  }

  private static Duration duration(long n, String unit) {
    switch (unit) {
      case "ms": case "milli": case "millis": case "millisecond": case "milliseconds":
        return Duration.ofMillis(n);
      case "s": case "sec": case "secs": case "second": case "seconds":
        return Duration.ofSeconds(n);
      case "m": case "min": case "mins": case "minute": case "minutes":
        return Duration.ofMinutes(n);
      case "h": case "hour": case "hours":
        return Duration.ofHours(n);
      case "d": case "day": case "days":
        return Duration.ofDays(n);
      case "w": case "week": case "weeks":
        return Duration.ofDays(7 * n);
      default:
        throw new IllegalArgumentException("`" + unit + "` is not a unit of time (use ms, seconds, minutes, hours,"
            + " days or weeks)");
    }
  }
}
