package dev.sluice.ingestion.expr.internal;

import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * Maps the simple shapes of a SQL condition onto table-format {@link Predicate}s: AND, OR, NOT,
 * column-vs-literal and column-vs-column comparisons, IN lists, BETWEEN and IS [NOT] NULL. Any other
 * shape anywhere in the tree gives empty, because a partial predicate would prune wrongly.
 */
final class TablePredicates {
  private TablePredicates() {}

  static Optional<Predicate> map(Expression tree, StructType schema) {
    Predicate p = new TablePredicates.Mapper(schema).map(tree);
    if (p == null) {
      return Optional.empty();
    }
    try {
      p.bind(schema);
    } catch (IllegalArgumentException e) {
      // The table's binder refuses mixes (e.g. a number literal for a string column) that Spark
      // coerces; pruning with such a predicate could differ from the row filter.
      return Optional.empty();
    }
    return Optional.of(p);
  }

  private record Mapper(StructType schema) {
    Predicate map(Expression e) {
      if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
        return map(p.get(0));
      }
      if (e instanceof AndExpression a) {
        return both(map(a.getLeftExpression()), map(a.getRightExpression()), true);
      }
      if (e instanceof OrExpression o) {
        return both(map(o.getLeftExpression()), map(o.getRightExpression()), false);
      }
      if (e instanceof NotExpression n) {
        Predicate child = map(n.getExpression());
        return child == null ? null : Predicate.not(child);
      }
      if (e instanceof BooleanValue b) {
        return b.getValue() ? Predicate.alwaysTrue() : Predicate.alwaysFalse();
      }
      if (e instanceof IsNullExpression n) {
        String column = column(n.getLeftExpression());
        return column == null ? null : n.isNot() ? Predicate.isNotNull(column) : Predicate.isNull(column);
      }
      if (e instanceof InExpression in) {
        return in(in);
      }
      if (e instanceof Between b) {
        return between(b);
      }
      CompareOp op = op(e);
      return op == null ? null : comparison((BinaryExpression) e, op);
    }

    private static Predicate both(Predicate left, Predicate right, boolean and) {
      if (left == null || right == null) {
        return null;
      }
      return and ? Predicate.and(left, right) : Predicate.or(left, right);
    }

    private Predicate comparison(BinaryExpression e, CompareOp op) {
      String left = column(e.getLeftExpression());
      String right = column(e.getRightExpression());
      if (left != null && right != null) {
        return Predicate.compareColumns(left, op, right);
      }
      if (left != null) {
        Object value = literal(e.getRightExpression());
        return value == null ? null : Predicate.compare(left, op, value);
      }
      if (right != null) {
        Object value = literal(e.getLeftExpression());
        return value == null ? null : Predicate.compare(right, op.flip(), value);
      }
      return null;
    }

    private Predicate in(InExpression in) {
      String column = column(in.getLeftExpression());
      if (column == null || !(in.getRightExpression() instanceof ExpressionList<?> list)) {
        return null;
      }
      List<Object> values = new ArrayList<>();
      for (Expression e : list) {
        Object v = literal(e);
        if (v == null) {
          return null;
        }
        values.add(v);
      }
      Predicate p = Predicate.in(column, values);
      return in.isNot() ? Predicate.not(p) : p;
    }

    private Predicate between(Between b) {
      String column = column(b.getLeftExpression());
      Object low = literal(b.getBetweenExpressionStart());
      Object high = literal(b.getBetweenExpressionEnd());
      if (column == null || low == null || high == null) {
        return null;
      }
      Predicate p = Predicate.and(Predicate.ge(column, low), Predicate.le(column, high));
      return b.isNot() ? Predicate.not(p) : p;
    }

    /** The schema's spelling of a plain column reference, or null. */
    private String column(Expression e) {
      if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
        return column(p.get(0));
      }
      if (!(e instanceof Column c) || c.getColumnName().startsWith("\"") || c.getTable() != null && c.getTable().getName() != null) {
        return null;
      }
      int i = schema.indexOf(c.getUnquotedColumnName());
      return i < 0 ? null : schema.field(i).name();
    }

    /** A non-null literal value, or null when {@code e} is not one. */
    private static Object literal(Expression e) {
      if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
        return literal(p.get(0));
      }
      if (e instanceof LongValue v) {
        long l = v.getValue();
        return l == (int) l ? (Object) (int) l : (Object) l;
      }
      if (e instanceof DoubleValue v) {
        return v.getValue();
      }
      if (e instanceof StringValue s) {
        return s.getValue().replace("''", "'");
      }
      if (e instanceof BooleanValue b) {
        return b.getValue();
      }
      if (e instanceof Column c && c.getColumnName().startsWith("\"")) {
        return c.getUnquotedColumnName();
      }
      if (e instanceof SignedExpression s && s.getSign() == '-') {
        Object v = literal(s.getExpression());
        if (v instanceof Integer i) {
          return -i;
        }
        if (v instanceof Long l) {
          return -l;
        }
        if (v instanceof Double d) {
          return -d;
        }
        return null;
      }
      if (e instanceof CastExpression c && c.isImplicitCast() && c.getLeftExpression() instanceof StringValue s) {
        String type = c.getColDataType().getDataType().trim().toUpperCase(java.util.Locale.ROOT);
        if (type.equals("DATE")) {
          LocalDate d = DateTimes.parseDate(s.getValue());
          return d;
        }
        if (type.equals("TIMESTAMP")) {
          Instant t = DateTimes.parseTimestamp(s.getValue());
          return t;
        }
      }
      return null;
    }

    private static CompareOp op(Expression e) {
      if (e instanceof EqualsTo) {
        return CompareOp.EQ;
      }
      if (e instanceof NotEqualsTo) {
        return CompareOp.NE;
      }
      if (e instanceof GreaterThan) {
        return CompareOp.GT;
      }
      if (e instanceof GreaterThanEquals) {
        return CompareOp.GE;
      }
      if (e instanceof MinorThan) {
        return CompareOp.LT;
      }
      if (e instanceof MinorThanEquals) {
        return CompareOp.LE;
      }
      return null;
    }
  }
}
