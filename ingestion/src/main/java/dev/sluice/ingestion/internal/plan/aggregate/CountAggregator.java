package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import java.util.List;

/** {@code count(*)} (every row) and {@code count(column)} (rows where the column is not null): a long, never null. */
final class CountAggregator implements Aggregator {
  private final String name;
  private final int column;

  /** @param column the input column, or -1 for {@code count(*)} */
  CountAggregator(String name, int column) {
    this.name = name;
    this.column = column;
  }

  @Override
  public List<StructField> bufferFields() {
    return List.of(StructField.of("count", PrimitiveType.LONG, false));
  }

  @Override
  public StructField resultField() {
    return StructField.of(name, PrimitiveType.LONG, false);
  }

  @Override
  public void init(Object[] buffer, int at) {
    buffer[at] = 0L;
  }

  @Override
  public void update(Object[] buffer, int at, Row input) {
    if (column < 0 || input.get(column) != null) {
      buffer[at] = (Long) buffer[at] + 1;
    }
  }

  @Override
  public Object result(Object[] buffer, int at) {
    return buffer[at];
  }

  @Override
  public void merge(Object[] into, int at, Object[] from, int fromAt) {
    into[at] = (Long) into[at] + (Long) from[fromAt];
  }
}
