package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;

/** AND, OR, NOT and IS [NOT] NULL with SQL's three-valued logic (NULL is UNKNOWN). */
final class LogicNodes {
  private LogicNodes() {}

  static final class And extends Node {
    private final Node left;
    private final Node right;

    And(Node left, Node right) {
      super(PrimitiveType.BOOLEAN, left.nullable || right.nullable);
      this.left = left;
      this.right = right;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object l = left.eval(row, context);
      if (Boolean.FALSE.equals(l)) {
        return Boolean.FALSE;
      }
      Object r = right.eval(row, context);
      if (Boolean.FALSE.equals(r)) {
        return Boolean.FALSE;
      }
      return l == null || r == null ? null : Boolean.TRUE;
    }
  }

  static final class Or extends Node {
    private final Node left;
    private final Node right;

    Or(Node left, Node right) {
      super(PrimitiveType.BOOLEAN, left.nullable || right.nullable);
      this.left = left;
      this.right = right;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object l = left.eval(row, context);
      if (Boolean.TRUE.equals(l)) {
        return Boolean.TRUE;
      }
      Object r = right.eval(row, context);
      if (Boolean.TRUE.equals(r)) {
        return Boolean.TRUE;
      }
      return l == null || r == null ? null : Boolean.FALSE;
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
