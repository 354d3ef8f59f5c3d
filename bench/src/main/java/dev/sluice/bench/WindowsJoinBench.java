package dev.sluice.bench;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamFrame;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Session windows and stream-stream join figures, fed from memory streams one batch at a time: (1) sessions of
 * {@code users} users ({@code session_window(ts, '10 minutes')} by user, append), (2) an inner join of
 * {@code rows} impressions with {@code rows} clicks on the ad id within 10 minutes, watermarks on both sides.
 * Reports events/s (wall and this process's CPU time), state keys and bytes per key, and state commit time per batch.
 */
final class WindowsJoinBench {
  static final StructType EVENTS = StructType.of(StructField.of("user", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP), StructField.of("value", PrimitiveType.LONG));
  static final StructType IMPRESSIONS = StructType.of(StructField.of("ad", PrimitiveType.LONG),
      StructField.of("imp_ts", PrimitiveType.TIMESTAMP));
  static final StructType CLICKS = StructType.of(StructField.of("click_ad", PrimitiveType.LONG),
      StructField.of("click_ts", PrimitiveType.TIMESTAMP));
  private static final long T0 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

  private WindowsJoinBench() {}

  /**
   * Batch b holds two events of each user in its slice: users are spread over the batches, each batch spans 2
   * minutes of event time, so a user's two events (1-4 minutes apart) form one session that closes a few batches on
   * (the 5-minute watermark delay keeps every event on time, so sessions emitted = users).
   */
  static Map<String, Object> sessions(Path dir, int users, int batches) {
    Random random = new Random(11);
    List<List<Row>> data = new ArrayList<>();
    int perBatch = users / batches;
    for (int b = 0; b < batches; b++) {
      List<Row> batch = new ArrayList<>(perBatch * 2);
      for (int u = b * perBatch; u < (b + 1) * perBatch; u++) {
        long t = T0 + b * 120_000L + random.nextInt(120_000);
        batch.add(Row.of("user-" + u, Instant.ofEpochMilli(t), (long) random.nextInt(100)));
        batch.add(Row.of("user-" + u, Instant.ofEpochMilli(t + 60_000 + random.nextInt(180_000)), 1L));
      }
      java.util.Collections.shuffle(batch, random);
      data.add(batch);
    }
    data.add(List.of(Row.of("flush", Instant.ofEpochMilli(T0 + batches * 120_000L + 3_600_000), 0L)));
    MemoryStream input = MemoryStream.named("bench-sessions", EVENTS);
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      AtomicLong emitted = new AtomicLong();
      StreamingQuery q = session.readStream().format("memory").option("name", "bench-sessions").load()
          .withWatermark("ts", "5 minutes")
          .groupBy("session_window(ts, '10 minutes')", "user").agg("count(*) AS events", "sum(value) AS total")
          .writeStream().outputMode("append").queryName("bench-sessions")
          .option("checkpointLocation", dir.resolve("sessions").toString())
          .foreachBatch((batch, id) -> emitted.addAndGet(batch.size())).start();
      Map<String, Object> out = feed(q, all, List.of(input), List.of(data), "session_window_aggregation");
      out.put("users", users);
      out.put("sessions_emitted", emitted.get());
      return out;
    } finally {
      MemoryStream.remove("bench-sessions");
    }
  }

  /** Impression i at a random time in its batch's 2 minutes; its click 0-10 minutes later, in that or a later batch. */
  static Map<String, Object> join(Path dir, int rows, int batches) {
    Random random = new Random(12);
    List<List<Row>> imps = new ArrayList<>();
    List<List<Row>> clicks = new ArrayList<>();
    for (int b = 0; b <= batches + 5; b++) {
      imps.add(new ArrayList<>());
      clicks.add(new ArrayList<>());
    }
    int perBatch = rows / batches;
    for (int i = 0; i < rows; i++) {
      int b = i / perBatch;
      long t = T0 + b * 120_000L + random.nextInt(120_000);
      long c = t + random.nextInt(600_000);
      imps.get(b).add(Row.of((long) i, Instant.ofEpochMilli(t)));
      clicks.get((int) Math.min(batches + 5, (c - T0) / 120_000)).add(Row.of((long) i, Instant.ofEpochMilli(c)));
    }
    // A last batch far ahead on both sides moves the watermark past every bound: state must then be (nearly) empty.
    long far = T0 + (batches + 40) * 120_000L;
    imps.add(List.of(Row.of(-1L, Instant.ofEpochMilli(far))));
    clicks.add(List.of(Row.of(-1L, Instant.ofEpochMilli(far))));
    MemoryStream left = MemoryStream.named("bench-imps", IMPRESSIONS);
    MemoryStream right = MemoryStream.named("bench-clicks", CLICKS);
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      AtomicLong emitted = new AtomicLong();
      StreamFrame i = session.readStream().format("memory").option("name", "bench-imps").load()
          .withWatermark("imp_ts", "1 minute");
      StreamFrame c = session.readStream().format("memory").option("name", "bench-clicks").load()
          .withWatermark("click_ts", "1 minute");
      StreamingQuery q = i.join(c, "ad = click_ad AND click_ts >= imp_ts AND click_ts <= imp_ts + INTERVAL 10 MINUTES",
              "inner").writeStream().queryName("bench-join")
          .option("checkpointLocation", dir.resolve("join").toString())
          .foreachBatch((batch, id) -> emitted.addAndGet(batch.size())).start();
      Map<String, Object> out = feed(q, all, List.of(left, right), List.of(imps, clicks), "stream_stream_join_10_minutes");
      out.put("impressions", rows);
      out.put("clicks", rows);
      out.put("joined_rows", emitted.get());
      return out;
    } finally {
      MemoryStream.remove("bench-imps");
      MemoryStream.remove("bench-clicks");
    }
  }

  private static Map<String, Object> feed(StreamingQuery q, BatchHistory all, List<MemoryStream> inputs,
      List<List<List<Row>>> data, String name) {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long nanos = 0;
    long cpu0 = os.getProcessCpuTime();
    for (int b = 0; b < data.get(0).size(); b++) {
      for (int s = 0; s < inputs.size(); s++) {
        inputs.get(s).addData(data.get(s).get(b));
      }
      long t0 = System.nanoTime();
      q.processAllAvailable();
      nanos += System.nanoTime() - t0;
    }
    long cpu = os.getProcessCpuTime() - cpu0;
    q.stop();
    List<QueryProgress> progress = all.of(q);
    long events = progress.stream().mapToLong(QueryProgress::numInputRows).sum();
    Map<String, Object> out = Json.object();
    out.put("benchmark", name);
    out.put("events", events);
    out.put("batches_total", progress.size());
    out.put("events_per_s", Math.round(events / (nanos / 1e9)));
    out.put("events_per_cpu_s", Math.round(events / (cpu / 1e9)));
    out.put("batch_ms_median", median(progress.stream().mapToLong(QueryProgress::batchDuration).toArray()));
    QueryProgress peak = progress.stream().max(java.util.Comparator.comparingLong(p -> p.stateOperators().stream()
        .mapToLong(QueryProgress.StateOperatorProgress::numRowsTotal).sum())).orElseThrow();
    for (int i = 0; i < peak.stateOperators().size(); i++) {
      int op = i;
      QueryProgress.StateOperatorProgress s = peak.stateOperators().get(i);
      Map<String, Object> m = Json.object();
      m.put("peak_state_keys", s.numRowsTotal());
      m.put("peak_memory_mb", Math.round(s.memoryUsedBytes() / 1e5) / 10.0);
      m.put("bytes_per_key", s.numRowsTotal() == 0 ? 0 : s.memoryUsedBytes() / s.numRowsTotal());
      m.put("final_state_keys", progress.get(progress.size() - 1).stateOperators().get(op).numRowsTotal());
      long[] commits = progress.stream().mapToLong(p -> p.stateOperators().get(op).commitTimeMs()).toArray();
      m.put("commit_ms_median", median(commits));
      m.put("commit_ms_max", Arrays.stream(commits).max().orElse(0));
      out.put(s.operatorName(), m);
    }
    return out;
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
  }
}
