package dev.sluice.gold.internal;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchContext;
import dev.sluice.ingestion.BatchFunction;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sink of append mode: the windows the engine finalised, flattened to the gold layout
 * ({@code window_start}, {@code window_end}, group-by columns, measures, {@code _group_key}) and appended
 * with {@code txn(<query id>, batchId)} and the batch's counters. A batch with neither input nor finished
 * windows writes nothing.
 */
final class AppendWindows implements BatchFunction {
  private final Table gold;
  private final List<String> partitionBy;
  private final int groupColumns;

  AppendWindows(Table gold, List<String> partitionBy, int groupColumns) {
    this.gold = gold;
    this.partitionBy = List.copyOf(partitionBy);
    this.groupColumns = groupColumns;
  }

  @Override
  public void call(Batch batch, long batchId) {
    throw new UnsupportedOperationException("AppendWindows writes with the query's id: call(batch, context)");
  }

  @Override
  public boolean call(Batch batch, BatchContext context) {
    Map<String, Long> batchMetrics = context.metrics();
    if (batch.size() == 0 && batchMetrics.getOrDefault(RowLedger.ROWS_IN, 0L) == 0) {
      return true;
    }
    StructType schema = goldSchema(batch.schema());
    List<Row> rows = new ArrayList<>(batch.size());
    for (Row r : batch.rows()) {
      Row window = (Row) r.get(0);
      Object[] keys = new Object[groupColumns];
      Object[] values = new Object[schema.size()];
      values[0] = window.get(0);
      values[1] = window.get(1);
      for (int i = 1; i < r.size(); i++) {
        values[i + 1] = r.get(i);
        if (i <= groupColumns) {
          keys[i - 1] = r.get(i);
        }
      }
      values[schema.size() - 1] = new GroupAggregation.Group(keys, (Instant) window.get(0), (Instant) window.get(1)).key();
      rows.add(Row.of(values));
    }
    if (!gold.exists()) {
      gold.create(schema).partitionBy(partitionBy.toArray(String[]::new)).ifNotExists().commit();
    }
    return !gold.newAppend().schema(schema).rows(rows).txn(context.appId(), context.batchId())
        .metrics(new TreeMap<>(batchMetrics)).operation("STREAMING APPEND").commit().skipped();
  }

  private static StructType goldSchema(StructType engine) {
    List<StructField> fields = new ArrayList<>();
    fields.add(StructField.of(GroupAggregation.WINDOW_START, PrimitiveType.TIMESTAMP, true));
    fields.add(StructField.of(GroupAggregation.WINDOW_END, PrimitiveType.TIMESTAMP, true));
    for (int i = 1; i < engine.size(); i++) {
      fields.add(StructField.of(engine.field(i).name(), engine.field(i).type(), true));
    }
    fields.add(StructField.of(GroupAggregation.GROUP_KEY, PrimitiveType.STRING, true));
    return new StructType(fields);
  }
}
