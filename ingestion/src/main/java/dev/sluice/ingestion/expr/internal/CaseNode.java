package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;

/** {@code CASE WHEN c1 THEN v1 ... ELSE e END}: the first TRUE condition picks its value. */
final class CaseNode extends Node {
  private final Node[] conditions;
  private final Node[] values;
  private final Node otherwise;

  CaseNode(Node[] conditions, Node[] values, Node otherwise, DataType type) {
    super(type, otherwise.nullable || anyNullable(values));
    this.conditions = conditions;
    this.values = values;
    this.otherwise = otherwise;
  }

  private static boolean anyNullable(Node[] nodes) {
    for (Node n : nodes) {
      if (n.nullable) {
        return true;
      }
    }
    return false;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    for (int i = 0; i < conditions.length; i++) {
      if (Boolean.TRUE.equals(conditions[i].eval(row, context))) {
        return values[i].eval(row, context);
      }
    }
    return otherwise.eval(row, context);
  }
}
