package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.expr.internal.Intervals;
import java.util.Objects;

/**
 * Spark's {@code session_window(column, gap)}: a row at time {@code t} opens the window {@code [t, t + gap)};
 * windows of one group key that overlap or touch merge into one session. The gap is a duration literal
 * ({@code '10 minutes'}) or an SQL expression over the row giving such text, evaluated per row (a row whose
 * gap is null, unreadable or not positive belongs to no session, as Spark drops it).
 *
 * @param gapMicros the literal gap, or 0 when {@code gapExpression} gives it per row
 */
public record SessionWindowSpec(String column, long gapMicros, String gapExpression) {
  public SessionWindowSpec {
    Objects.requireNonNull(column, "column");
    if (gapExpression == null && gapMicros <= 0) {
      throw new IllegalArgumentException("session_window(" + column + ", ...): the gap must be a positive duration,"
          + " e.g. '10 minutes'");
    }
  }

  /**
   * @param gap a quoted duration ({@code '10 minutes'}) or an SQL expression
   * @throws IllegalArgumentException for an unreadable or non-positive literal gap
   */
  public static SessionWindowSpec of(String column, String gap) {
    String g = gap.trim();
    if (g.length() > 1 && g.startsWith("'") && g.endsWith("'") && g.indexOf('\'', 1) == g.length() - 1) {
      Long micros = Intervals.micros(g.substring(1, g.length() - 1));
      if (micros == null || micros <= 0) {
        throw new IllegalArgumentException("Cannot read the session gap " + g + " of session_window(" + column
            + ", " + g + "): write a positive duration such as '10 minutes' or '1 hour 30 minutes'");
      }
      return new SessionWindowSpec(column, micros, null);
    }
    return new SessionWindowSpec(column, 0, g);
  }

  /** The call as written in SQL, e.g. {@code session_window(event_time, '10 minutes')}. */
  public String sql() {
    return "session_window(" + column + ", " + (gapExpression != null ? gapExpression : "'" + micros() + "'") + ")";
  }

  private String micros() {
    long us = gapMicros;
    long[] units = {86_400_000_000L, 3_600_000_000L, 60_000_000L, 1_000_000L, 1000L, 1L};
    String[] names = {"days", "hours", "minutes", "seconds", "milliseconds", "microseconds"};
    for (int i = 0; i < units.length; i++) {
      if (us % units[i] == 0) {
        return us / units[i] + " " + names[i];
      }
    }
    throw new AssertionError("unreachable");
  }
}
