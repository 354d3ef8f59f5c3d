package dev.sluice.table.internal.expressions;

import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.CompareOp;
import java.util.List;

/**
 * A bound predicate in negation normal form: there is no NOT node, because every NOT is pushed
 * into the leaves at bind time. That rewrite is exact under SQL's three-valued (Kleene) logic
 * ({@code NOT (x < 5)} is {@code x >= 5}, both UNKNOWN for a null {@code x}; De Morgan holds), and it
 * lets file pruning treat AND and OR as monotone.
 */
public sealed interface Node
    permits Node.Compare, Node.CompareColumns, Node.IsNull, Node.IsNotNull, Node.In, Node.And, Node.Or,
        Node.Constant {

  /** TRUE, FALSE or null (UNKNOWN) for {@code row}. */
  Boolean eval(Row row);

  /** The node that is TRUE exactly when this one is FALSE, and UNKNOWN when this one is. */
  Node negate();

  /** {@code column op literal}; the literal is already in the column's value domain. */
  record Compare(Column column, CompareOp op, Object literal) implements Node {
    @Override
    public Boolean eval(Row row) {
      Object value = row.get(column.ordinal());
      return value == null ? null : op.test(column.compare(value, literal));
    }

    @Override
    public Node negate() {
      return new Compare(column, op.negate(), literal);
    }
  }

  /** {@code left op right}; both columns have mutually comparable types. */
  record CompareColumns(Column left, CompareOp op, Column right) implements Node {
    @Override
    public Boolean eval(Row row) {
      Object a = row.get(left.ordinal());
      Object b = row.get(right.ordinal());
      return a == null || b == null ? null : op.test(left.compare(a, b));
    }

    @Override
    public Node negate() {
      return new CompareColumns(left, op.negate(), right);
    }
  }

  /** {@code column IS NULL}: never UNKNOWN. */
  record IsNull(Column column) implements Node {
    @Override
    public Boolean eval(Row row) {
      return row.isNullAt(column.ordinal());
    }

    @Override
    public Node negate() {
      return new IsNotNull(column);
    }
  }

  /** {@code column IS NOT NULL}: never UNKNOWN. */
  record IsNotNull(Column column) implements Node {
    @Override
    public Boolean eval(Row row) {
      return !row.isNullAt(column.ordinal());
    }

    @Override
    public Node negate() {
      return new IsNull(column);
    }
  }

  /** {@code column [NOT] IN (values)}; the values are non-null and in the column's value domain. */
  record In(Column column, List<Object> values, boolean negated, InValues index) implements Node {
    public In {
      values = List.copyOf(values);
      // A MERGE prunes by IN over every key of its batch (a million values): hashed, never scanned per row.
      if (index == null) {
        index = new InValues(column, values);
      }
    }

    public In(Column column, List<Object> values, boolean negated) {
      this(column, values, negated, null);
    }

    @Override
    public Boolean eval(Row row) {
      Object value = row.get(column.ordinal());
      if (value == null) {
        return null;
      }
      return contains(value) != negated;
    }

    /** Whether {@code value} equals one of the listed values under the column's order. */
    public boolean contains(Object value) {
      return index.contains(value);
    }

    /** Whether a listed value v has {@code low <= v <= high} (a null bound is open): file pruning by min/max. */
    public boolean anyBetween(Object low, Object high) {
      return index.anyBetween(low, high);
    }

    @Override
    public Node negate() {
      return new In(column, values, !negated, index);
    }
  }

  /** Kleene AND: FALSE wins over UNKNOWN. */
  record And(Node left, Node right) implements Node {
    @Override
    public Boolean eval(Row row) {
      Boolean l = left.eval(row);
      if (Boolean.FALSE.equals(l)) {
        return false;
      }
      Boolean r = right.eval(row);
      if (Boolean.FALSE.equals(r)) {
        return false;
      }
      return l == null || r == null ? null : true;
    }

    @Override
    public Node negate() {
      return new Or(left.negate(), right.negate());
    }
  }

  /** Kleene OR: TRUE wins over UNKNOWN. */
  record Or(Node left, Node right) implements Node {
    @Override
    public Boolean eval(Row row) {
      Boolean l = left.eval(row);
      if (Boolean.TRUE.equals(l)) {
        return true;
      }
      Boolean r = right.eval(row);
      if (Boolean.TRUE.equals(r)) {
        return true;
      }
      return l == null || r == null ? null : false;
    }

    @Override
    public Node negate() {
      return new And(left.negate(), right.negate());
    }
  }

  /** TRUE or FALSE. */
  record Constant(boolean value) implements Node {
    @Override
    public Boolean eval(Row row) {
      return value;
    }

    @Override
    public Node negate() {
      return new Constant(!value);
    }
  }
}
