package dev.sluice.ingestion.expr;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import java.util.Set;

/**
 * A SQL expression resolved against one schema and compiled for evaluation; immutable and
 * thread-safe. Rows passed in must match that schema positionally.
 */
public interface BoundExpression {

  /** The result type, a Delta type (e.g. {@code PrimitiveType.LONG}, {@code DecimalType}). */
  DataType type();

  /** False only when no row can make the result null. */
  boolean nullable();

  /** The value for {@code row}, in the Java mapping of {@link DataType}; {@code null} is SQL NULL. */
  Object eval(Row row, EvalContext context);

  /** Whether a boolean expression is TRUE for {@code row}; FALSE and NULL (unknown) both give false. */
  default boolean test(Row row, EvalContext context) {
    return Boolean.TRUE.equals(eval(row, context));
  }

  /** The SQL text the expression was bound from. */
  String sql();

  /** The schema's names of the columns the expression reads, in order of first appearance. */
  Set<String> referencedColumns();
}
