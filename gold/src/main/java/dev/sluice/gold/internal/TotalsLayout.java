package dev.sluice.gold.internal;

import dev.sluice.gold.internal.GroupAggregation.Group;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@link GroupTotals} are kept in a state store: the key is the group key text; the value holds the
 * window (when windowed) and group values, so that a group's gold row can be written from state alone,
 * the row count, and per measure the non-null count and, for sum and avg, the exact sum.
 */
final class TotalsLayout {
  private final GroupAggregation aggregation;
  private final boolean windowed;
  private final int groups;
  private final boolean[] hasSum;
  private final StateSchema schema;

  TotalsLayout(GroupAggregation aggregation) {
    this.aggregation = aggregation;
    this.windowed = aggregation.windowed();
    this.groups = aggregation.groupCount();
    List<StructField> value = new ArrayList<>();
    if (windowed) {
      value.add(StructField.of("window_start", PrimitiveType.TIMESTAMP, true));
      value.add(StructField.of("window_end", PrimitiveType.TIMESTAMP, true));
    }
    for (int i = 0; i < groups; i++) {
      value.add(StructField.of("group_" + i, aggregation.groupType(i), true));
    }
    value.add(StructField.of("rows", PrimitiveType.LONG, false));
    List<Measure> measures = aggregation.measures();
    this.hasSum = new boolean[measures.size()];
    for (int i = 0; i < measures.size(); i++) {
      value.add(StructField.of("count_" + i, PrimitiveType.LONG, false));
      DataType sum = Accumulator.sumType(measures.get(i).function(), aggregation.argumentType(i));
      hasSum[i] = sum != null;
      if (hasSum[i]) {
        value.add(StructField.of("sum_" + i, sum, false));
      }
    }
    this.schema = new StateSchema(new StructType(List.of(StructField.of("group_key", PrimitiveType.STRING, false))),
        new StructType(value));
  }

  StateSchema schema() {
    return schema;
  }

  static Row key(String groupKey) {
    return Row.of(groupKey);
  }

  Row encode(GroupTotals t) {
    Object[] out = new Object[schema.valueSchema().size()];
    int at = 0;
    if (windowed) {
      out[at++] = t.group.windowStart();
      out[at++] = t.group.windowEnd();
    }
    for (Object v : t.group.values()) {
      out[at++] = v;
    }
    out[at++] = t.rows;
    for (int i = 0; i < t.measures.length; i++) {
      out[at++] = t.measures[i].count();
      if (hasSum[i]) {
        out[at++] = t.measures[i].sum();
      }
    }
    return Row.of(out);
  }

  GroupTotals decode(Row value) {
    int at = 0;
    Instant start = windowed ? (Instant) value.get(at++) : null;
    Instant end = windowed ? (Instant) value.get(at++) : null;
    Object[] values = new Object[groups];
    for (int i = 0; i < groups; i++) {
      values[i] = value.get(at++);
    }
    long rows = (Long) value.get(at++);
    Accumulator.Invertible[] measures = aggregation.newInvertibles();
    for (int i = 0; i < measures.length; i++) {
      long count = (Long) value.get(at++);
      measures[i].restore(count, hasSum[i] ? value.get(at++) : null);
    }
    return new GroupTotals(new Group(values, start, end), measures, rows);
  }
}
