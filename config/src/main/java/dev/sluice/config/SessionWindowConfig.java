package dev.sluice.config;

import java.util.Objects;
import java.util.Optional;

/**
 * A session window of a gold aggregate ({@code window: {type: session, column, gap | gap_expr}}): a row at
 * {@code t} opens {@code [t, t + gap)}, and windows of one group that overlap or touch merge. The gap is fixed
 * ({@code gap: 30 minutes}) or an SQL expression per row giving a duration as text ({@code gap_expr}).
 */
public record SessionWindowConfig(String column, Optional<Interval> gap, Optional<String> gapExpression) {
  public SessionWindowConfig {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(gap, "gap");
    Objects.requireNonNull(gapExpression, "gapExpression");
    if (gap.isPresent() == gapExpression.isPresent()) {
      throw new IllegalArgumentException("exactly one of gap and gapExpression");
    }
  }

  /** A session window with a fixed gap. */
  public static SessionWindowConfig of(String column, Interval gap) {
    return new SessionWindowConfig(column, Optional.of(gap), Optional.empty());
  }

  /** The gap as the second argument of the engine's {@code session_window(column, gap)}. */
  public String gapArgument() {
    return gap.map(g -> "'" + g.text() + "'").orElseGet(gapExpression::orElseThrow);
  }
}
