package dev.sluice.ingestion.expr;

import dev.sluice.ingestion.expr.internal.ExpressionCompiler;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.util.Optional;

/**
 * Parses SQL expression strings (Spark SQL dialect, a subset) and binds them to a schema.
 *
 * <p>Literal typing: integers are {@code integer} when they fit, else {@code long}; decimal literals
 * such as {@code 1.5} are {@code double} (Spark makes them {@code decimal}; double keeps arithmetic
 * fast and is what data engineers usually mean in filters). Casts and functions follow Spark's
 * non-ANSI mode: a string that does not parse casts to NULL, division by zero is NULL, integer
 * overflow wraps, {@code /} on integers gives double. Deviations: byte and short arithmetic gives
 * integer; {@code "text"} in double quotes is a string literal (Spark's default), names with spaces
 * go in backquotes. Timestamps are UTC {@link java.time.Instant}s; text without a zone is read as UTC.
 */
public final class Expressions {
  private Expressions() {}

  /**
   * Parses {@code sql} and binds it to {@code schema}.
   *
   * @throws ExpressionException if the text does not parse, names an unknown column or function, or
   *     combines types that cannot be combined
   */
  public static BoundExpression bind(String sql, StructType schema) {
    return ExpressionCompiler.bind(sql, schema);
  }

  /**
   * Like {@link #bind}, for a condition: the expression must be boolean.
   *
   * @throws ExpressionException as {@link #bind} does, and if the result is not boolean
   */
  public static BoundExpression bindPredicate(String sql, StructType schema) {
    return ExpressionCompiler.bindPredicate(sql, schema);
  }

  /**
   * The table-format predicate equal to {@code sql}, when it is made only of AND, OR, NOT and
   * comparisons, IN, BETWEEN or IS [NOT] NULL between a column and literals (or two columns); empty
   * for any other shape. Used for file pruning and commit conflict scopes.
   *
   * @throws ExpressionException if {@code sql} is not a valid predicate over {@code schema}
   */
  public static Optional<Predicate> toTablePredicate(String sql, StructType schema) {
    return ExpressionCompiler.toTablePredicate(sql, schema);
  }
}
