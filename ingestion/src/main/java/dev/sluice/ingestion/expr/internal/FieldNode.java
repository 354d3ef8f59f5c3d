package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;

/** {@code struct.field}: one field of a struct value by its ordinal (null when the struct is null). */
final class FieldNode extends Node {
  private final Node struct;
  private final int ordinal;

  FieldNode(Node struct, int ordinal, DataType type, boolean nullable) {
    super(type, nullable || struct.nullable);
    this.struct = struct;
    this.ordinal = ordinal;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    Object v = struct.eval(row, context);
    return v == null ? null : ((Row) v).get(ordinal);
  }
}
