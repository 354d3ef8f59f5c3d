package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import java.util.function.UnaryOperator;

/** Converts its child's value with a conversion chosen at bind time. */
final class CastNode extends Node {
  private final Node child;
  private final UnaryOperator<Object> conversion;

  CastNode(Node child, DataType to, UnaryOperator<Object> conversion) {
    // Parsing text, fitting decimals and numbers outside the timestamp range can fail, and failure is null.
    super(to, child.nullable || child.type == PrimitiveType.STRING || to instanceof dev.sluice.table.types.DecimalType
        || to == PrimitiveType.TIMESTAMP && Types.isNumeric(child.type));
    this.child = child;
    this.conversion = conversion;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    Object v = child.eval(row, context);
    return v == null ? null : conversion.apply(v);
  }
}
