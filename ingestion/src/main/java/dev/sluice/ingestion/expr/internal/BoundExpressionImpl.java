package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/** A bound expression: the root of its node tree plus what it was bound from. */
final class BoundExpressionImpl implements BoundExpression {
  private final String sql;
  private final Node root;
  private final Set<String> referencedColumns;

  BoundExpressionImpl(String sql, Node root, Set<String> referencedColumns) {
    this.sql = sql;
    this.root = root;
    this.referencedColumns = Collections.unmodifiableSet(new LinkedHashSet<>(referencedColumns));
  }

  @Override
  public DataType type() {
    return root.type;
  }

  @Override
  public boolean nullable() {
    return root.nullable;
  }

  @Override
  public Object eval(Row row, EvalContext context) {
    return root.eval(row, context);
  }

  @Override
  public boolean test(Row row, EvalContext context) {
    return root.eval(row, context) == Boolean.TRUE;
  }

  @Override
  public String sql() {
    return sql;
  }

  @Override
  public Set<String> referencedColumns() {
    return referencedColumns;
  }

  @Override
  public String toString() {
    return sql;
  }
}
