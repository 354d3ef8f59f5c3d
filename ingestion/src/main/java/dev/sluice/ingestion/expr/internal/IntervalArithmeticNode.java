package dev.sluice.ingestion.expr.internal;

import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import java.time.Instant;

/** {@code timestamp ± INTERVAL …}: a timestamp moved by a fixed number of microseconds (null stays null). */
final class IntervalArithmeticNode extends Node {
  private final Node timestamp;
  private final long micros;

  IntervalArithmeticNode(Node timestamp, long micros) {
    super(PrimitiveType.TIMESTAMP, timestamp.nullable);
    this.timestamp = timestamp;
    this.micros = micros;
  }

  @Override
  Object eval(Row row, EvalContext context) {
    Object t = timestamp.eval(row, context);
    return t == null ? null : ((Instant) t).plusNanos(micros * 1000L);
  }

  @Override
  boolean isConstant() {
    return timestamp.isConstant();
  }
}
