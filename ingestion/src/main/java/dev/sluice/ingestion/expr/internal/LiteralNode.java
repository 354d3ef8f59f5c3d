package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;

/** A constant value. */
final class LiteralNode extends Node {
  private final Object value;
  private final boolean untypedNull;

  private LiteralNode(Object value, DataType type, boolean untypedNull) {
    super(type, value == null);
    this.value = value;
    this.untypedNull = untypedNull;
  }

  static LiteralNode of(Object value, DataType type) {
    return new LiteralNode(value, type, false);
  }

  /** {@code NULL} as written, typed as string until the binder gives it the type it is used with. */
  static LiteralNode untypedNull() {
    return new LiteralNode(null, PrimitiveType.STRING, true);
  }

  Object value() {
    return value;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    return value;
  }

  @Override
  boolean isNullLiteral() {
    return untypedNull;
  }

  @Override
  boolean isConstant() {
    return true;
  }
}
