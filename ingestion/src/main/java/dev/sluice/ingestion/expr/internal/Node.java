package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;

/**
 * One compiled step of an expression. Binding resolves names, ordinals and types once, so {@link
 * #eval} does no lookups: it reads ordinals and calls its children.
 */
abstract class Node {
  final DataType type;
  final boolean nullable;

  Node(DataType type, boolean nullable) {
    this.type = type;
    this.nullable = nullable;
  }

  abstract Object eval(Row row, EvalContext context);

  /** True for a bare {@code NULL} literal, whose type is taken from where it is used. */
  boolean isNullLiteral() {
    return false;
  }

  /** True when the value does not depend on the row or the batch. */
  boolean isConstant() {
    return false;
  }
}
