package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.StructField;
import java.util.Comparator;
import java.util.List;

/** {@code min(column)} and {@code max(column)} in Spark's value order; null until a non-null value arrives. */
final class MinMaxAggregator implements Aggregator {
  private final String name;
  private final int column;
  private final DataType type;
  private final Comparator<Object> order;
  private final boolean max;

  MinMaxAggregator(String name, int column, DataType type, Comparator<Object> order, boolean max) {
    this.name = name;
    this.column = column;
    this.type = type;
    this.order = order;
    this.max = max;
  }

  @Override
  public List<StructField> bufferFields() {
    return List.of(StructField.of(max ? "max" : "min", type, true));
  }

  @Override
  public StructField resultField() {
    return StructField.of(name, type, true);
  }

  @Override
  public void init(Object[] buffer, int at) {
    buffer[at] = null;
  }

  @Override
  public void update(Object[] buffer, int at, Row input) {
    Object v = input.get(column);
    if (v == null) {
      return;
    }
    Object current = buffer[at];
    if (current == null) {
      buffer[at] = v;
      return;
    }
    int c = order.compare(v, current);
    if (max ? c > 0 : c < 0) {
      buffer[at] = v;
    }
  }

  @Override
  public Object result(Object[] buffer, int at) {
    return buffer[at];
  }

  @Override
  public void merge(Object[] into, int at, Object[] from, int fromAt) {
    Object v = from[fromAt];
    if (v != null && (into[at] == null || (max ? order.compare(v, into[at]) > 0 : order.compare(v, into[at]) < 0))) {
      into[at] = v;
    }
  }
}
