package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * {@code avg(column)} from a sum and a count kept in state, with Spark's result types: double for
 * integers and floating point, {@code decimal(p + 4, s + 4)} (rounded half up) for {@code decimal(p, s)}.
 * Null when no non-null value arrived or when a decimal sum overflowed.
 */
final class AvgAggregator implements Aggregator {
  private final String name;
  private final int column;
  private final boolean decimal;
  private final DataType sumType;
  private final DataType resultType;

  AvgAggregator(String name, int column, DataType inputType) {
    this.name = name;
    this.column = column;
    this.decimal = inputType instanceof DecimalType;
    if (inputType instanceof DecimalType d) {
      sumType = NumericKind.bounded(d.precision() + 10, d.scale());
      resultType = NumericKind.bounded(d.precision() + 4, d.scale() + 4);
    } else {
      sumType = PrimitiveType.DOUBLE;
      resultType = PrimitiveType.DOUBLE;
    }
  }

  @Override
  public List<StructField> bufferFields() {
    return List.of(StructField.of("sum", sumType, true), StructField.of("count", PrimitiveType.LONG, false));
  }

  @Override
  public StructField resultField() {
    return StructField.of(name, resultType, true);
  }

  @Override
  public void init(Object[] buffer, int at) {
    buffer[at] = null;
    buffer[at + 1] = 0L;
  }

  @Override
  public void update(Object[] buffer, int at, Row input) {
    Object v = input.get(column);
    if (v == null) {
      return;
    }
    long count = (Long) buffer[at + 1];
    if (!decimal) {
      buffer[at] = (count == 0 ? 0d : (Double) buffer[at]) + ((Number) v).doubleValue();
    } else if (count == 0 || buffer[at] != null) {
      buffer[at] = NumericKind.addDecimal((BigDecimal) buffer[at], (BigDecimal) v, (DecimalType) sumType);
    }
    buffer[at + 1] = count + 1;
  }

  @Override
  public Object result(Object[] buffer, int at) {
    long count = (Long) buffer[at + 1];
    if (count == 0 || buffer[at] == null) {
      return null;
    }
    if (!decimal) {
      return (Double) buffer[at] / count;
    }
    DecimalType t = (DecimalType) resultType;
    BigDecimal avg = ((BigDecimal) buffer[at]).divide(BigDecimal.valueOf(count), t.scale(), RoundingMode.HALF_UP);
    return NumericKind.fit(avg, t);
  }

  @Override
  public void merge(Object[] into, int at, Object[] from, int fromAt) {
    long count = (Long) from[fromAt + 1];
    if (count == 0) {
      return;
    }
    long mine = (Long) into[at + 1];
    if (!decimal) {
      into[at] = (mine == 0 ? 0d : (Double) into[at]) + (Double) from[fromAt];
    } else {
      into[at] = mine == 0 ? from[fromAt] : into[at] == null || from[fromAt] == null ? null
          : NumericKind.addDecimal((BigDecimal) into[at], (BigDecimal) from[fromAt], (DecimalType) sumType);
    }
    into[at + 1] = mine + count;
  }
}
