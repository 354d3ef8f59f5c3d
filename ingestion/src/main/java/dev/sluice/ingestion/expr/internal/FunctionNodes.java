package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/** Evaluator shapes for functions: NULL in, NULL out (strict) with one to three arguments, and the non-strict ones. */
final class FunctionNodes {
  private FunctionNodes() {}

  interface Fn3 {
    Object apply(Object a, Object b, Object c);
  }

  static final class Unary extends Node {
    private final Node arg;
    private final UnaryOperator<Object> fn;

    Unary(DataType type, boolean nullable, Node arg, UnaryOperator<Object> fn) {
      super(type, nullable || arg.nullable);
      this.arg = arg;
      this.fn = fn;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object a = arg.eval(row, context);
      return a == null ? null : fn.apply(a);
    }
  }

  static final class Binary extends Node {
    private final Node first;
    private final Node second;
    private final BinaryOperator<Object> fn;

    Binary(DataType type, boolean nullable, Node first, Node second, BinaryOperator<Object> fn) {
      super(type, nullable || first.nullable || second.nullable);
      this.first = first;
      this.second = second;
      this.fn = fn;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object a = first.eval(row, context);
      if (a == null) {
        return null;
      }
      Object b = second.eval(row, context);
      return b == null ? null : fn.apply(a, b);
    }
  }

  static final class Ternary extends Node {
    private final Node first;
    private final Node second;
    private final Node third;
    private final Fn3 fn;

    Ternary(DataType type, boolean nullable, Node first, Node second, Node third, Fn3 fn) {
      super(type, nullable || first.nullable || second.nullable || third.nullable);
      this.first = first;
      this.second = second;
      this.third = third;
      this.fn = fn;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      Object a = first.eval(row, context);
      if (a == null) {
        return null;
      }
      Object b = second.eval(row, context);
      if (b == null) {
        return null;
      }
      Object c = third.eval(row, context);
      return c == null ? null : fn.apply(a, b, c);
    }
  }

  /** {@code coalesce(a, b, ...)}: the first non-NULL argument. */
  static final class Coalesce extends Node {
    private final Node[] args;

    Coalesce(DataType type, Node[] args) {
      super(type, allNullable(args));
      this.args = args;
    }

    private static boolean allNullable(Node[] args) {
      for (Node n : args) {
        if (!n.nullable) {
          return false;
        }
      }
      return true;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      for (Node n : args) {
        Object v = n.eval(row, context);
        if (v != null) {
          return v;
        }
      }
      return null;
    }
  }

  /** {@code concat(a, b, ...)} and {@code a || b}: NULL when any argument is NULL, as in Spark. */
  static final class Concat extends Node {
    private final Node[] args;

    Concat(Node[] args) {
      super(PrimitiveType.STRING, java.util.Arrays.stream(args).anyMatch(n -> n.nullable));
      this.args = args;
    }

    @Override
    Object eval(Row row, EvalContext context) {
      StringBuilder out = new StringBuilder();
      for (Node n : args) {
        Object v = n.eval(row, context);
        if (v == null) {
          return null;
        }
        out.append((String) v);
      }
      return out.toString();
    }
  }

  /** {@code current_timestamp()}: the batch's timestamp. */
  static final class CurrentTimestamp extends Node {
    CurrentTimestamp() {
      super(PrimitiveType.TIMESTAMP, false);
    }

    @Override
    Object eval(Row row, EvalContext context) {
      return context.batchTimestamp();
    }
  }
}
