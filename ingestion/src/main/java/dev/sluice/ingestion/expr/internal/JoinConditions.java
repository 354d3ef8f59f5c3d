package dev.sluice.ingestion.expr.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * Reads what a stream-stream join needs from its condition, as Spark's planner does: the top-level AND terms
 * {@code left.col = right.col} (the equality keys) and the time-range terms between a column of each side,
 * {@code r.t >= l.t - INTERVAL …}, {@code r.t BETWEEN l.t AND l.t + INTERVAL …}, which bound
 * {@code right - left}. The whole condition is still evaluated on every candidate pair; this only finds keys
 * and how long a row can still match.
 */
public final class JoinConditions {
  /** A column of one side: {@code side} 0 is the left input, 1 the right; {@code ordinal} in that side's schema. */
  public record SideColumn(int side, int ordinal) {}

  /** {@code minMicros <= right.rightOrdinal - left.leftOrdinal <= maxMicros}; a null end is unbounded. */
  public record TimeBound(int leftOrdinal, int rightOrdinal, Long minMicros, Long maxMicros) {}

  /** Equality keys as {@code {leftOrdinal, rightOrdinal}} pairs, and the time bounds found. */
  public record Analysis(List<int[]> equalities, List<TimeBound> bounds) {}

  private JoinConditions() {}

  /**
   * @param resolve a column's name parts ({@code [alias, column]} or {@code [column]}) to its side, or null
   * @throws dev.sluice.ingestion.expr.ExpressionException when the condition doesn't parse
   */
  public static Analysis analyze(String sql, Function<List<String>, SideColumn> resolve) {
    List<Expression> terms = new ArrayList<>();
    conjuncts(SqlText.parse(sql).tree(), terms);
    List<int[]> keys = new ArrayList<>();
    List<TimeBound> bounds = new ArrayList<>();
    for (Expression e : terms) {
      if (e instanceof Between b && !b.isNot()) {
        compare(b.getLeftExpression(), ">=", b.getBetweenExpressionStart(), resolve, bounds);
        compare(b.getLeftExpression(), "<=", b.getBetweenExpressionEnd(), resolve, bounds);
      } else if (e instanceof EqualsTo eq && eq.getLeftExpression() instanceof Column l
          && eq.getRightExpression() instanceof Column r) {
        SideColumn a = resolve.apply(parts(l));
        SideColumn c = resolve.apply(parts(r));
        if (a != null && c != null && a.side() != c.side()) {
          keys.add(a.side() == 0 ? new int[] {a.ordinal(), c.ordinal()} : new int[] {c.ordinal(), a.ordinal()});
        }
      } else if (e instanceof ComparisonOperator c && !(e instanceof EqualsTo)) {
        String op = e instanceof GreaterThan || e instanceof GreaterThanEquals ? ">="
            : e instanceof MinorThan || e instanceof MinorThanEquals ? "<=" : null;
        if (op != null) {
          compare(c.getLeftExpression(), op, c.getRightExpression(), resolve, bounds);
        }
      }
    }
    return new Analysis(keys, bounds);
  }

  private static void conjuncts(Expression e, List<Expression> out) {
    if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
      conjuncts(p.get(0), out);
    } else if (e instanceof AndExpression a) {
      conjuncts(a.getLeftExpression(), out);
      conjuncts(a.getRightExpression(), out);
    } else {
      out.add(e);
    }
  }

  /** {@code x op y} where both are {@code column [± interval]} of different sides: a bound on right - left. */
  private static void compare(Expression x, String op, Expression y, Function<List<String>, SideColumn> resolve,
      List<TimeBound> out) {
    Term a = term(x, resolve);
    Term b = term(y, resolve);
    if (a == null || b == null || a.column.side() == b.column.side()) {
      return;
    }
    // a.col + a.offset  op  b.col + b.offset
    Term right = a.column.side() == 1 ? a : b;
    Term left = right == a ? b : a;
    // R + oR op L + oL  ⇔  R - L op (oL - oR); with the sides the other way round the operator flips.
    long diff = left.offset - right.offset;
    boolean lower = op.equals(">=") == (right == a);
    out.add(new TimeBound(left.column.ordinal(), right.column.ordinal(), lower ? diff : null, lower ? null : diff));
  }

  private record Term(SideColumn column, long offset) {}

  private static Term term(Expression e, Function<List<String>, SideColumn> resolve) {
    if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
      return term(p.get(0), resolve);
    }
    if (e instanceof Column c) {
      SideColumn s = resolve.apply(parts(c));
      return s == null ? null : new Term(s, 0);
    }
    boolean add = e instanceof Addition;
    if ((add || e instanceof Subtraction)
        && ((net.sf.jsqlparser.expression.BinaryExpression) e).getRightExpression() instanceof IntervalExpression i) {
      Term t = term(((net.sf.jsqlparser.expression.BinaryExpression) e).getLeftExpression(), resolve);
      Long micros = Intervals.micros(i);
      return t == null || micros == null ? null : new Term(t.column, t.offset + (add ? micros : -micros));
    }
    return null;
  }

  private static List<String> parts(Column c) {
    List<String> out = new ArrayList<>();
    for (String p : c.getFullyQualifiedName().split("\\.")) {
      out.add(p.replace("`", ""));
    }
    return out;
  }
}
