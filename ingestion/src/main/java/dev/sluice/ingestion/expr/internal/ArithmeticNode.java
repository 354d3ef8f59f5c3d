package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code + - * / %} over operands of one numeric type (the binder casts them), in that type's Java
 * arithmetic: integers wrap on overflow as in Spark's non-ANSI mode; division or remainder by zero is
 * NULL; a decimal result that does not fit its type is NULL.
 */
final class ArithmeticNode extends Node {
  enum Op {
    ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), REMAINDER("%");

    final String sql;

    Op(String sql) {
      this.sql = sql;
    }
  }

  private enum Kind { INT, LONG, FLOAT, DOUBLE, DECIMAL }

  private final Node left;
  private final Op op;
  private final Node right;
  private final Kind kind;

  ArithmeticNode(Node left, Op op, Node right, DataType resultType) {
    super(resultType, left.nullable || right.nullable || op == Op.DIVIDE || op == Op.REMAINDER
        || resultType instanceof DecimalType);
    this.left = left;
    this.op = op;
    this.right = right;
    this.kind = resultType instanceof DecimalType ? Kind.DECIMAL
        : switch ((PrimitiveType) resultType) {
          case LONG -> Kind.LONG;
          case FLOAT -> Kind.FLOAT;
          case DOUBLE -> Kind.DOUBLE;
          default -> Kind.INT;
        };
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
    return switch (kind) {
      case INT -> ints(((Number) l).intValue(), ((Number) r).intValue());
      case LONG -> longs(((Number) l).longValue(), ((Number) r).longValue());
      case FLOAT -> floats(((Number) l).floatValue(), ((Number) r).floatValue());
      case DOUBLE -> doubles(((Number) l).doubleValue(), ((Number) r).doubleValue());
      case DECIMAL -> decimals(Casts.toBigDecimal(l), Casts.toBigDecimal(r));
    };
  }

  private Object ints(int a, int b) {
    return switch (op) {
      case ADD -> a + b;
      case SUBTRACT -> a - b;
      case MULTIPLY -> a * b;
      case DIVIDE -> b == 0 ? null : a / b;
      case REMAINDER -> b == 0 ? null : a % b;
    };
  }

  private Object longs(long a, long b) {
    return switch (op) {
      case ADD -> a + b;
      case SUBTRACT -> a - b;
      case MULTIPLY -> a * b;
      case DIVIDE -> b == 0 ? null : a / b;
      case REMAINDER -> b == 0 ? null : a % b;
    };
  }

  private Object floats(float a, float b) {
    return switch (op) {
      case ADD -> a + b;
      case SUBTRACT -> a - b;
      case MULTIPLY -> a * b;
      case DIVIDE -> b == 0 ? null : a / b;
      case REMAINDER -> b == 0 ? null : a % b;
    };
  }

  private Object doubles(double a, double b) {
    return switch (op) {
      case ADD -> a + b;
      case SUBTRACT -> a - b;
      case MULTIPLY -> a * b;
      case DIVIDE -> b == 0 ? null : a / b;
      case REMAINDER -> b == 0 ? null : a % b;
    };
  }

  private Object decimals(BigDecimal a, BigDecimal b) {
    DecimalType t = (DecimalType) type;
    BigDecimal out = switch (op) {
      case ADD -> a.add(b);
      case SUBTRACT -> a.subtract(b);
      case MULTIPLY -> a.multiply(b);
      case DIVIDE -> b.signum() == 0 ? null : a.divide(b, t.scale(), RoundingMode.HALF_UP);
      case REMAINDER -> b.signum() == 0 ? null : a.remainder(b, MathContext.DECIMAL128);
    };
    return out == null ? null : Casts.toDecimal(out, t);
  }
}
