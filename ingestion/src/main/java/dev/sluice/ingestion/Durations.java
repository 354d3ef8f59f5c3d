package dev.sluice.ingestion;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses human interval strings ({@code 10 seconds}, {@code 5 min}, {@code 250ms}, {@code 1 hour}). */
public final class Durations {
  private static final Pattern INTERVAL = Pattern.compile("(?:interval\\s+)?(\\d+)\\s*([a-z]+)");

  private Durations() {}

  /**
   * @param what names the setting in the error message
   * @throws IllegalArgumentException naming the setting and the accepted forms
   */
  public static Duration parse(String text, String what) {
    Matcher m = INTERVAL.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("Cannot read " + what + " '" + text + "': write a number and a unit, e.g."
          + " '500 ms', '10 seconds', '5 minutes', '1 hour', '7 days'");
    }
    long n = Long.parseLong(m.group(1));
    switch (m.group(2)) {
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
        throw new IllegalArgumentException("Cannot read " + what + " '" + text + "': unknown unit '" + m.group(2)
            + "'; use ms, seconds, minutes, hours, days or weeks");
    }
  }
}
