package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;

/** AND, OR, NOT and IS [NOT] NULL with SQL's three-valued logic (NULL is UNKNOWN). */
final class LogicNodes {
  private LogicNodes() {}

  /** AND when FALSE decides, OR when TRUE decides. */
  static Node and(Node left, Node right) {
    return new Junction(left, right, Boolean.FALSE);
  }

  static Node or(Node left, Node right) {
    return new Junction(left, right, Boolean.TRUE);
  }

  /**
   * AND and OR in one shape: a side equal to {@code decisive} decides (the other side is then not needed);
   * otherwise the result is UNKNOWN when a side is NULL, else the opposite of {@code decisive}.
   */
  static final class Junction extends Node {
    private final Node left;
    private final Node right;
    private final Boolean decisive;
    private final Boolean otherwise;

    Junction(Node left, Node right, Boolean decisive) {
      super(PrimitiveType.BOOLEAN, left.nullable || right.nullable);
      this.left = left;
      this.right = right;
      this.decisive = decisive;
      this.otherwise = !decisive;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object l = left.eval(row, context);
      if (decisive.equals(l)) {
        return decisive;
      }
      Object r = right.eval(row, context);
      if (decisive.equals(r)) {
        return decisive;
      }
      return l == null || r == null ? null : otherwise;
    }
  }

  static final class Not extends Node {
    private final Node child;

    Not(Node child) {
      super(PrimitiveType.BOOLEAN, child.nullable);
      this.child = child;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object v = child.eval(row, context);
      return v == null ? null : (Boolean) v ? Boolean.FALSE : Boolean.TRUE;
    }
  }

  static final class IsNull extends Node {
    private final Node child;
    private final boolean negated;

    IsNull(Node child, boolean negated) {
      super(PrimitiveType.BOOLEAN, false);
      this.child = child;
      this.negated = negated;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      return (child.eval(row, context) == null) != negated;
    }
  }
}
