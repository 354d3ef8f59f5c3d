package dev.sluice.table.internal.expressions;

import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;

/** A predicate bound by {@link Binder}: the canonical predicate plus its evaluation tree. */
record BoundPredicateImpl(StructType schema, Predicate predicate, Node root) implements BoundPredicate {

  @Override
  public Boolean evaluate(Row row) {
    if (row.size() != schema.size()) {
      throw new IllegalArgumentException(
          "The row has " + row.size() + " values but the predicate `" + predicate + "` was bound to a schema of "
              + schema.size() + " columns " + schema.fieldNames() + "; pass rows of that schema");
    }
    return root.eval(row);
  }

  @Override
  public String toString() {
    return predicate.toString();
  }
}
