package dev.sluice.bench;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stateful engine figures: events/s through {@code dropDuplicatesWithinWatermark(event_id)} followed by
 * a 1-minute tumbling-window count/sum by {@code key} over 1,000,000 distinct keys (10 % of events
 * re-sent), fed from a memory stream one batch at a time; state bytes per key and state commit time
 * per batch from the progress {@code stateOperators}.
 */
final class StatefulBench {
  static final StructType EVENTS = StructType.of(
      StructField.of("event_id", PrimitiveType.LONG),
      StructField.of("key", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("value", PrimitiveType.LONG));

  private StatefulBench() {}

  static Map<String, Object> run(Path dir, int keys, int batches, int perBatch) {
    // warm-up on a small stream so that the measured run sees a warm JVM
    measure(dir.resolve("warm"), 10_000, 3, 20_000, "stateful-bench-warm");
    return measure(dir.resolve("run"), keys, batches, perBatch, "stateful-bench");
  }

  private static Map<String, Object> measure(Path dir, int keys, int batches, int perBatch, String name) {
    List<List<Row>> data = generate(keys, batches, perBatch);
    MemoryStream input = MemoryStream.named(name, EVENTS);
    AtomicLong emitted = new AtomicLong();
    List<QueryProgress> progress;
    long nanos = 0;
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      StreamingQuery q = session.readStream().format("memory").option("name", name).load()
          .withWatermark("ts", "1 minute")
          .dropDuplicatesWithinWatermark("event_id")
          .groupBy("window(ts, '1 minute')", "key").agg("count(*) AS n", "sum(value) AS total")
          .writeStream().outputMode("append").queryName(name)
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .foreachBatch((batch, id) -> emitted.addAndGet(batch.size()))
          .start();
      for (List<Row> batch : data) {
        input.addData(batch);
        long t0 = System.nanoTime();
        q.processAllAvailable();
        nanos += System.nanoTime() - t0;
      }
      q.stop();
      progress = all.of(q);
    } finally {
      MemoryStream.remove(name);
    }
    long rows = progress.stream().mapToLong(QueryProgress::numInputRows).sum();
    List<QueryProgress> withData = progress.stream().filter(p -> p.numInputRows() > 0).toList();
    long[] perBatchCommit = withData.stream()
        .mapToLong(p -> p.stateOperators().stream().mapToLong(QueryProgress.StateOperatorProgress::commitTimeMs).sum())
        .sorted().toArray();
    QueryProgress last = withData.get(withData.size() - 1);
    Map<String, Object> out = Json.object();
    out.put("benchmark", "stateful_dedup_window_aggregation");
    out.put("distinct_keys", keys);
    out.put("events", rows);
    out.put("batches_with_data", withData.size());
    out.put("batches_total", progress.size());
    out.put("events_per_s", Math.round(rows / (nanos / 1e9)));
    out.put("rows_emitted", emitted.get());
    for (int i = 0; i < last.stateOperators().size(); i++) {
      int operator = i;
      QueryProgress.StateOperatorProgress s = last.stateOperators().get(i);
      Map<String, Object> op = Json.object();
      op.put("rows_total", s.numRowsTotal());
      op.put("memory_mb", Math.round(s.memoryUsedBytes() / 1e5) / 10.0);
      op.put("bytes_per_key", s.numRowsTotal() == 0 ? 0 : s.memoryUsedBytes() / s.numRowsTotal());
      long[] times = withData.stream().mapToLong(p -> p.stateOperators().get(operator).commitTimeMs()).sorted()
          .toArray();
      op.put("commit_ms_median", times[times.length / 2]);
      op.put("commit_ms_max", times[times.length - 1]);
      out.put(s.operatorName(), op);
    }
    out.put("state_commit_ms_per_batch_median", perBatchCommit[perBatchCommit.length / 2]);
    out.put("batch_ms_median", median(withData.stream().mapToLong(QueryProgress::batchDuration).toArray()));
    return out;
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /**
   * Batch b spans event minute b (so each batch closes the previous window); keys drawn uniformly from
   * {@code keys}; 10 % of events re-send one of the batch's earlier events (same id, dropped by the dedup).
   */
  private static List<List<Row>> generate(int keys, int batches, int perBatch) {
    Random random = new Random(7);
    long start = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    String[] names = new String[keys];
    for (int k = 0; k < keys; k++) {
      names[k] = "key-" + k;
    }
    List<List<Row>> out = new ArrayList<>();
    long id = 0;
    for (int b = 0; b < batches; b++) {
      List<Row> batch = new ArrayList<>(perBatch);
      for (int i = 0; i < perBatch; i++) {
        if (i > 0 && random.nextInt(10) == 0) {
          batch.add(batch.get(random.nextInt(i)));
          continue;
        }
        Instant ts = Instant.ofEpochMilli(start + b * 60_000L + (long) i * 60_000L / perBatch);
        batch.add(Row.of(id++, names[random.nextInt(keys)], ts, (long) random.nextInt(1000)));
      }
      out.add(batch);
    }
    return out;
  }
}
