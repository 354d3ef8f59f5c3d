package dev.sluice.table.internal.replay;

import dev.sluice.table.exceptions.InvalidTableException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Delta's {@code interval <n> <unit>} table property values (e.g. {@code interval 1 week}). */
public final class Intervals {
  static final long WEEK_MILLIS = 7L * 24 * 3600 * 1000;
  private static final Pattern INTERVAL = Pattern.compile("\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]+)\\s*");

  private Intervals() {}

  /**
   * The duration in milliseconds.
   *
   * @throws InvalidTableException naming the property if the value is not an interval Delta accepts
   */
  public static long parseMillis(String value, String property) {
    Matcher m = INTERVAL.matcher(value.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2).endsWith("s") ? m.group(2).substring(0, m.group(2).length() - 1) : m.group(2);
      Long factor = switch (unit) {
        case "week" -> WEEK_MILLIS;
        case "day" -> 24L * 3600 * 1000;
        case "hour" -> 3600L * 1000;
        case "minute" -> 60L * 1000;
        case "second" -> 1000L;
        case "millisecond" -> 1L;
        case "microsecond" -> 0L;
        default -> null;
      };
      if (factor != null) {
        return unit.equals("microsecond") ? n / 1000 : n * factor;
      }
    }
    throw new InvalidTableException("The table property " + property + " = '" + value + "' is not a valid interval."
        + " Use 'interval <n> <unit>' with unit week, day, hour, minute, second or millisecond, e.g. 'interval 7 days'.");
  }
}
