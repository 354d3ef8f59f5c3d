package dev.sluice.table.expressions;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;

/**
 * A {@link Predicate} resolved against a schema: columns found, literals converted to the columns'
 * types. Rows passed in must match {@link #schema()} positionally. Immutable and thread-safe.
 */
public interface BoundPredicate {

  /** The schema the predicate was bound to. */
  StructType schema();

  /** The predicate with column names spelled as in the schema and literals in the columns' types. */
  Predicate predicate();

  /**
   * The predicate's SQL value for {@code row}: TRUE, FALSE, or {@code null} for UNKNOWN (a comparison
   * with a null value is unknown, as in SQL).
   */
  Boolean evaluate(Row row);

  /** Whether {@code row} matches: only a TRUE result matches, UNKNOWN does not. */
  default boolean test(Row row) {
    return Boolean.TRUE.equals(evaluate(row));
  }
}
