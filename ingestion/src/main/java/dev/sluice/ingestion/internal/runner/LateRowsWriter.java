package dev.sluice.ingestion.internal.runner;

import dev.sluice.ingestion.Location;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Keeps the rows stateful steps dropped as late in a Delta table: the row's columns plus
 * {@code _late_operator}, {@code _late_batch_id} and {@code _late_watermark}. Written before the
 * sink commit with {@code txn(<query id>-late, batch id)}, so a re-run batch doesn't write them twice.
 */
final class LateRowsWriter {
  /** One late row as a step reported it. */
  record LateRow(String operator, StructType schema, Row row, long watermarkMs) {}

  private final Table table;
  private final String appId;

  LateRowsWriter(Location location, UUID queryId) {
    this.table = Table.forPath(location.store(), location.key());
    this.appId = queryId + "-late";
  }

  void write(long batchId, List<LateRow> rows) {
    Map<StructType, List<Row>> bySchema = new LinkedHashMap<>();
    for (LateRow r : rows) {
      Object[] values = new Object[r.schema().size() + 3];
      for (int i = 0; i < r.schema().size(); i++) {
        values[i] = r.row().get(i);
      }
      values[r.schema().size()] = r.operator();
      values[r.schema().size() + 1] = batchId;
      values[r.schema().size() + 2] = Instant.ofEpochMilli(r.watermarkMs());
      bySchema.computeIfAbsent(withLateColumns(r.schema()), s -> new ArrayList<>()).add(Row.of(values));
    }
    // Usually one schema (the rows before the first stateful step); several are merged additively.
    int part = 0;
    for (Map.Entry<StructType, List<Row>> e : bySchema.entrySet()) {
      if (!table.exists()) {
        table.create(e.getKey()).ifNotExists().commit();
      }
      table.newAppend().txn(appId + (part == 0 ? "" : "-" + part), batchId).schema(e.getKey()).rows(e.getValue())
          .mergeSchema(true).operation("STREAMING LATE ROWS").commit();
      part++;
    }
  }

  static StructType withLateColumns(StructType schema) {
    return schema.add("_late_operator", PrimitiveType.STRING).add("_late_batch_id", PrimitiveType.LONG)
        .add("_late_watermark", PrimitiveType.TIMESTAMP);
  }
}
