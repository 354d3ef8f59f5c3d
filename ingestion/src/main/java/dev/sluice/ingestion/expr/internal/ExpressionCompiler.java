package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.Optional;

/** Entry point behind {@link dev.sluice.ingestion.expr.Expressions}. */
public final class ExpressionCompiler {
  private ExpressionCompiler() {}

  public static BoundExpression bind(String sql, StructType schema) {
    SqlText text = SqlText.parse(sql);
    ExpressionBinder binder = new ExpressionBinder(text, schema);
    Node root = binder.bind(text.tree());
    if (root.isNullLiteral()) {
      root = LiteralNode.of(null, PrimitiveType.STRING);
    }
    return new BoundExpressionImpl(sql, root, binder.referencedColumns());
  }

  public static BoundExpression bindPredicate(String sql, StructType schema) {
    SqlText text = SqlText.parse(sql);
    ExpressionBinder binder = new ExpressionBinder(text, schema);
    Node root = binder.condition(text.tree());
    return new BoundExpressionImpl(sql, root, binder.referencedColumns());
  }

  public static Optional<Predicate> toTablePredicate(String sql, StructType schema) {
    SqlText text = SqlText.parse(sql);
    new ExpressionBinder(text, schema).condition(text.tree());
    return TablePredicates.map(text.tree(), schema);
  }
}
