package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;

/** {@code left op right} for operands already brought to one type; NULL when either is NULL. */
final class CompareNode extends Node {
  /** How two values of the operands' common type compare. */
  enum Kind {
    LONG, DOUBLE, DECIMAL, OBJECT;

    static Kind of(DataType type) {
      if (type instanceof DecimalType) {
        return DECIMAL;
      }
      if (Types.isIntegral(type)) {
        return LONG;
      }
      if (Types.isFractional(type)) {
        return DOUBLE;
      }
      return OBJECT;
    }
  }

  private final Node left;
  private final CompareOp op;
  private final Node right;
  private final Kind kind;

  CompareNode(Node left, CompareOp op, Node right) {
    super(PrimitiveType.BOOLEAN, left.nullable || right.nullable);
    this.left = left;
    this.op = op;
    this.right = right;
    this.kind = Kind.of(left.type);
  }

  @Override
  Object eval(Row row, EvalContext context) {
    Object l = left.eval(row, context);
    if (l == null) {
      return null;
    }
    Object r = right.eval(row, context);
    if (r == null) {
      return null;
    }
    return op.test(compare(kind, l, r));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Kind kind, Object l, Object r) {
    return switch (kind) {
      case LONG -> Long.compare(((Number) l).longValue(), ((Number) r).longValue());
      case DOUBLE -> compareDoubles(((Number) l).doubleValue(), ((Number) r).doubleValue());
      case DECIMAL -> Casts.toBigDecimal(l).compareTo(Casts.toBigDecimal(r));
      case OBJECT -> ((Comparable) l).compareTo(r);
    };
  }

  /** Spark's order: -0.0 equals 0.0, NaN equals NaN and is greater than any other value. */
  private static int compareDoubles(double a, double b) {
    if (a < b) {
      return -1;
    }
    if (a > b) {
      return 1;
    }
    return a == b ? 0 : Double.compare(a, b);
  }
}
