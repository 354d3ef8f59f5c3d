package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.Transform.BatchInfo;
import dev.sluice.ingestion.state.MapStateStore;
import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs an aggregation over successive batches with a {@link MapStateStore}, collecting late rows. */
final class AggregationHarness {
  final StatefulTransform step;
  final List<Row> late = new ArrayList<>();
  final List<Long> lateWatermarks = new ArrayList<>();
  final List<String> lateOperators = new ArrayList<>();
  final List<StructType> lateSchemas = new ArrayList<>();
  private final StructType input;
  private MapStateStore store;
  private long batchId;

  AggregationHarness(AggregationSpec spec, StructType input) {
    this.step = spec.bind(input);
    this.input = input;
  }

  static AggregationHarness of(StructType input, OutputMode mode, WindowSpec window, WatermarkSpec watermark,
      List<String> keys, AggregateSpec... aggregates) {
    return new AggregationHarness(new AggregationSpec(keys, window, Arrays.asList(aggregates), mode, watermark), input);
  }

  /** Runs one batch with the given watermark and returns its output rows. */
  List<Row> run(long watermarkMs, Row... rows) {
    return run(watermarkMs, Arrays.asList(rows));
  }

  List<Row> run(long watermarkMs, List<Row> rows) {
    store = store == null ? new MapStateStore() : store.next();
    MapStateStore current = store;
    BatchInfo info = new BatchInfo(batchId++, Instant.EPOCH, watermarkMs, s -> current, (op, schema, row, wm) -> {
      late.add(row);
      lateWatermarks.add(wm);
      lateOperators.add(op);
      lateSchemas.add(schema);
    });
    return step.apply(new Batch(input, rows), info).rows();
  }

  List<StateEntry> stateEntries() {
    List<StateEntry> out = new ArrayList<>();
    store.iterator().forEachRemaining(out::add);
    return out;
  }

  long stateSize() {
    return store.size();
  }
}
