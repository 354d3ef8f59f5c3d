package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;

/** Reads one column by its ordinal. */
final class ColumnNode extends Node {
  private final int ordinal;

  ColumnNode(int ordinal, DataType type, boolean nullable) {
    super(type, nullable);
    this.ordinal = ordinal;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    return row.get(ordinal);
  }
}
