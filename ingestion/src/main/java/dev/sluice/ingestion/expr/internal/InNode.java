package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;

/**
 * {@code value [NOT] IN (list)} over operands of one type: TRUE when some element equals the value,
 * otherwise NULL when the value or an element is NULL, otherwise FALSE (NOT IN negates that).
 */
final class InNode extends Node {
  private final Node value;
  private final Node[] list;
  private final CompareNode.Kind kind;
  private final boolean negated;

  InNode(Node value, Node[] list, boolean negated) {
    super(PrimitiveType.BOOLEAN, value.nullable || anyNullable(list));
    this.value = value;
    this.list = list;
    this.kind = CompareNode.Kind.of(value.type);
    this.negated = negated;
  }

  private static boolean anyNullable(Node[] nodes) {
    for (Node n : nodes) {
      if (n.nullable) {
        return true;
      }
    }
    return false;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    Object v = value.eval(row, context);
    if (v == null) {
      return null;
    }
    boolean sawNull = false;
    for (Node element : list) {
      Object e = element.eval(row, context);
      if (e == null) {
        sawNull = true;
      } else if (CompareNode.compare(kind, v, e) == 0) {
        return !negated;
      }
    }
    return sawNull ? null : negated;
  }
}
