package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.ExpressionException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import net.sf.jsqlparser.expression.Expression;

/** Every message of this package, so they all say problem, place and fix the same way. */
final class Errors {
  private Errors() {}

  static ExpressionException parse(String sql, int line, int column, String near) {
    return new ExpressionException(
        "Cannot parse the SQL expression `" + sql + "` at " + where(line, column)
            + (near == null ? "" : " near `" + near + "`")
            + ". Check the syntax there (quote names with spaces in backquotes, strings in single quotes).",
        line, column);
  }

  static ExpressionException unknownColumn(SqlText text, Expression at, String name, List<String> known) {
    Position p = text.position(at, name);
    return new ExpressionException(
        "Unknown column `" + name + "` at " + where(p.line(), p.column()) + " in expression `" + text.sql() + "`."
            + suggestion(name, known)
            + " Known columns: " + String.join(", ", known) + ". Fix the name or add the column to the input.",
        p.line(), p.column());
  }

  static ExpressionException unknownFunction(SqlText text, Expression at, String name, Collection<String> known) {
    Position p = text.position(at, name);
    List<String> sorted = known.stream().sorted().collect(Collectors.toList());
    return new ExpressionException(
        "Unknown function `" + name + "` at " + where(p.line(), p.column()) + " in expression `" + text.sql() + "`."
            + suggestion(name, sorted)
            + " Known functions: " + String.join(", ", sorted) + ".",
        p.line(), p.column());
  }

  /** A problem with one part of the expression, e.g. wrong argument count or incompatible types. */
  static ExpressionException at(SqlText text, Expression at, String problem) {
    Position p = text.position(at, null);
    return new ExpressionException(
        problem + " (at " + where(p.line(), p.column()) + " in expression `" + text.sql() + "`: `" + at + "`)",
        p.line(), p.column());
  }

  private static String where(int line, int column) {
    return line <= 0 ? "an unknown position" : "line " + line + ", column " + column;
  }

  private static String suggestion(String name, Collection<String> known) {
    return closest(name, known).map(c -> " Did you mean `" + c + "`?").orElse("");
  }

  /** The known name nearest to {@code name} when it is at most 2 edits away (ignoring case). */
  static Optional<String> closest(String name, Collection<String> known) {
    String lower = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = 3;
    for (String candidate : known) {
      int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
