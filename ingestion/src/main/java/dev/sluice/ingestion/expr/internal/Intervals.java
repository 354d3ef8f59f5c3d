package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.IntervalExpression;

/**
 * Spark's day-time interval literals: {@code INTERVAL '1' MINUTE}, {@code INTERVAL 10 MINUTES},
 * {@code INTERVAL '1 hour 30 minutes'}. Months and years are refused: their length in time depends on the
 * date they are added to, and a timestamp bound must be a fixed span.
 */
public final class Intervals {
  private static final Pattern PART = Pattern.compile("(-?\\d+)\\s*([a-z]+)");

  private Intervals() {}

  /** The interval in microseconds, or null when {@code e} is not a literal interval this class can read. */
  static Long micros(IntervalExpression e) {
    String param = e.getParameter();
    if (param == null) {
      return null;
    }
    String value = param.trim().replaceAll("^'|'$", "").trim();
    String unit = e.getIntervalType();
    return micros(unit == null ? value : value + " " + unit);
  }

  /**
   * Reads {@code text} such as {@code 10 minutes} or {@code 1 hour 30 minutes}; null when it isn't one.
   */
  public static Long micros(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.startsWith("interval ")) {
      t = t.substring("interval ".length()).trim();
    }
    Matcher m = PART.matcher(t);
    long total = 0;
    int end = 0;
    while (m.find()) {
      if (!t.substring(end, m.start()).isBlank()) {
        return null;
      }
      String unit = m.group(2);
      if (unit.startsWith("month") || unit.startsWith("year")) {
        return null;
      }
      long n = Long.parseLong(m.group(1));
      Duration d;
      if (unit.startsWith("microsecond") || unit.equals("us")) {
        d = Duration.ofNanos(Math.multiplyExact(n, 1000L));
      } else {
        try {
          d = Durations.parse(Math.abs(n) + " " + unit, "interval");
        } catch (IllegalArgumentException bad) {
          return null;
        }
        d = n < 0 ? d.negated() : d;
      }
      total = Math.addExact(total, d.toNanos() / 1000);
      end = m.end();
    }
    return end == 0 || !t.substring(end).isBlank() ? null : total;
  }
}
