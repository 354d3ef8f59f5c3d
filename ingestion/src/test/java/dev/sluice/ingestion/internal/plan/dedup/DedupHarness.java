package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.ingestion.state.MapStateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Runs a stateful step over successive batches with a {@link MapStateStore}, collecting late rows. */
final class DedupHarness {
  static final StructType SCHEMA = StructType.empty()
      .add("id", PrimitiveType.STRING)
      .add("seq", PrimitiveType.LONG)
      .add("ts", PrimitiveType.TIMESTAMP);

  final StatefulTransform step;
  final List<Row> late = new ArrayList<>();
  final List<Long> lateWatermarks = new ArrayList<>();
  MapStateStore store = new MapStateStore();
  private long batchId;

  DedupHarness(StatefulTransform step) {
    this.step = step;
  }

  static Row row(String id, long seq, long tsMs) {
    return Row.of(id, seq, Instant.ofEpochMilli(tsMs));
  }

  /** Applies the step to one batch at {@code watermarkMs}; the next call sees this batch's state. */
  List<Row> batch(long watermarkMs, Row... rows) {
    return batch(watermarkMs, List.of(rows));
  }

  List<Row> batch(long watermarkMs, List<Row> rows) {
    MapStateStore current = batchId == 0 ? store : store.next();
    store = current;
    Transform.BatchInfo info = new Transform.BatchInfo(batchId++, Instant.EPOCH, watermarkMs, s -> {
      if (s != step) {
        throw new AssertionError("store asked for another step: " + s.describe());
      }
      return current;
    }, (operator, schema, row, wm) -> {
      if (!operator.equals(step.operatorName()) || !schema.equals(step.schema())) {
        throw new AssertionError("late row reported as " + operator + " " + schema);
      }
      late.add(row);
      lateWatermarks.add(wm);
    });
    Batch out = step.apply(new Batch(SCHEMA, rows), info);
    if (!out.schema().equals(SCHEMA)) {
      throw new AssertionError("deduplication changed the schema: " + out.schema());
    }
    return out.rows();
  }
}
