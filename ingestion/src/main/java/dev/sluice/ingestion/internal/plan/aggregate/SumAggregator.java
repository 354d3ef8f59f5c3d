package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code sum(column)} with Spark's result types: long for integers, double for floating point,
 * {@code decimal(p + 10, s)} for {@code decimal(p, s)}. Null when no non-null value arrived; a decimal
 * sum that overflows stays null (non-ANSI), hence the extra {@code isEmpty} buffer Spark also keeps.
 */
final class SumAggregator implements Aggregator {
  private final String name;
  private final int column;
  private final NumericKind kind;
  private final DataType resultType;

  SumAggregator(String name, int column, DataType inputType) {
    this.name = name;
    this.column = column;
    this.kind = NumericKind.of(inputType);
    this.resultType = switch (kind) {
      case LONG -> PrimitiveType.LONG;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case DECIMAL -> NumericKind.bounded(((DecimalType) inputType).precision() + 10, ((DecimalType) inputType).scale());
    };
  }

  @Override
  public List<StructField> bufferFields() {
    StructField sum = StructField.of("sum", resultType, true);
    return kind == NumericKind.DECIMAL ? List.of(sum, StructField.of("isEmpty", PrimitiveType.BOOLEAN, false))
        : List.of(sum);
  }

  @Override
  public StructField resultField() {
    return StructField.of(name, resultType, true);
  }

  @Override
  public void init(Object[] buffer, int at) {
    buffer[at] = null;
    if (kind == NumericKind.DECIMAL) {
      buffer[at + 1] = Boolean.TRUE;
    }
  }

  @Override
  public void update(Object[] buffer, int at, Row input) {
    Object v = input.get(column);
    if (v == null) {
      return;
    }
    switch (kind) {
      case LONG -> buffer[at] = (buffer[at] == null ? 0L : (Long) buffer[at]) + ((Number) v).longValue();
      case DOUBLE -> buffer[at] = (buffer[at] == null ? 0d : (Double) buffer[at]) + ((Number) v).doubleValue();
      case DECIMAL -> {
        boolean empty = (Boolean) buffer[at + 1];
        if (empty || buffer[at] != null) {
          buffer[at] = NumericKind.addDecimal((BigDecimal) buffer[at], (BigDecimal) v, (DecimalType) resultType);
        }
        buffer[at + 1] = Boolean.FALSE;
      }
      default -> throw new AssertionError(kind);
    }
  }

  @Override
  public Object result(Object[] buffer, int at) {
    return buffer[at];
  }

  @Override
  public void merge(Object[] into, int at, Object[] from, int fromAt) {
    Object v = from[fromAt];
    switch (kind) {
      case LONG -> into[at] = v == null ? into[at] : (into[at] == null ? 0L : (Long) into[at]) + (Long) v;
      case DOUBLE -> into[at] = v == null ? into[at] : (into[at] == null ? 0d : (Double) into[at]) + (Double) v;
      case DECIMAL -> {
        boolean intoEmpty = (Boolean) into[at + 1];
        boolean fromEmpty = (Boolean) from[fromAt + 1];
        // A null sum over seen rows is an overflow: it stays null, as one long sum would.
        if (!fromEmpty) {
          into[at] = intoEmpty ? v : into[at] == null || v == null ? null
              : NumericKind.addDecimal((BigDecimal) into[at], (BigDecimal) v, (DecimalType) resultType);
          into[at + 1] = Boolean.FALSE;
        }
      }
      default -> throw new AssertionError(kind);
    }
  }
}
