package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.LateRows;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.Transform.BatchInfo;
import dev.sluice.ingestion.state.MapStateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A by-hand measurement, not a test: 1,000,000 events over 1,000,000 distinct keys into a 1-minute
 * tumbling window with {@code count(*)} and {@code sum(amount)}, update mode with a moving watermark, in
 * batches of 100,000 over a {@link MapStateStore}; prints events per second as JSON. Run with the test
 * classpath: {@code java -Xmx2g -cp target/test-classes:target/classes:<deps>
 * dev.sluice.ingestion.internal.plan.aggregate.AggregationBenchmark [events] [batchSize] [rounds]}.
 */
public final class AggregationBenchmark {
  private static final StructType INPUT = StructType.of(StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("key", PrimitiveType.STRING), StructField.of("amount", PrimitiveType.LONG));

  private AggregationBenchmark() {}

  public static void main(String[] args) {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int batchSize = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    List<List<Row>> batches = new ArrayList<>();
    long base = Instant.parse("2026-11-30T00:00:00Z").toEpochMilli();
    for (int from = 0; from < events; from += batchSize) {
      List<Row> rows = new ArrayList<>();
      for (int i = from; i < Math.min(events, from + batchSize); i++) {
        // About 1,000 events per second of event time: a window holds ~60,000 keys.
        rows.add(Row.of(Instant.ofEpochMilli(base + i), "key-" + i, (long) (i % 1000)));
      }
      batches.add(rows);
    }
    AggregationSpec spec = new AggregationSpec(List.of("key"), WindowSpec.tumbling("ts", Duration.ofMinutes(1)),
        List.of(AggregateSpec.count(), AggregateSpec.sum("amount")), OutputMode.UPDATE,
        new WatermarkSpec("ts", Duration.ofSeconds(30)));
    long best = Long.MAX_VALUE;
    long emitted = 0;
    long stateRows = 0;
    for (int round = 0; round < rounds; round++) {
      StatefulTransform step = spec.bind(INPUT);
      MapStateStore store = null;
      long watermark = 0;
      emitted = 0;
      long start = System.nanoTime();
      for (int b = 0; b < batches.size(); b++) {
        store = store == null ? new MapStateStore() : store.next();
        MapStateStore current = store;
        BatchInfo info = new BatchInfo(b, Instant.EPOCH, watermark, s -> current, LateRows.NONE);
        emitted += step.apply(new Batch(INPUT, batches.get(b)), info).size();
        List<Row> rows = batches.get(b);
        watermark = ((Instant) rows.get(rows.size() - 1).get(0)).toEpochMilli() - 30_000;
      }
      best = Math.min(best, System.nanoTime() - start);
      stateRows = store.size();
    }
    System.out.printf(Locale.ROOT, "{\"events\":%d,\"keys\":%d,\"batches\":%d,\"window\":\"1 minute tumbling\","
        + "\"emitted\":%d,\"stateRowsAtEnd\":%d,\"bestRoundMs\":%.1f,\"eventsPerSecond\":%.0f}%n",
        events, events, batches.size(), emitted, stateRows, best / 1e6, events / (best / 1e9));
  }
}
