package dev.sluice.bench;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.stateful.Encoders;
import dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.GroupState;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Arbitrary state figures: users' sessions (events closer than a 3-minute gap) with {@code flatMapGroupsWithState}
 * and {@code EventTimeTimeout}, {@code users} distinct users drawn uniformly, fed from a memory stream one batch per
 * event minute; a session is emitted once the watermark (1 minute behind) passes its end plus the gap. Reports
 * events/s, state rows and bytes per key, and the state commit time per batch, from the progress.
 */
final class ArbitraryStateBench {
  static final StructType EVENTS = StructType.of(StructField.of("user", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP));
  private static final long GAP_MS = 180_000;

  record Session(long startMs, long endMs, long events) {}

  record Closed(String user, long startMs, long endMs, long events) {}

  /** One open session per user; an event past the gap closes it and opens the next. */
  static final class Sessions implements FlatMapGroupsWithStateFunction<Session, Closed> {
    @Override
    public Iterator<Closed> call(Row key, Iterator<Row> rows, GroupState<Session> state) {
      String user = (String) key.get(0);
      List<Closed> out = new ArrayList<>(1);
      if (state.hasTimedOut()) {
        Session s = state.get();
        state.remove();
        return List.of(new Closed(user, s.startMs(), s.endMs(), s.events())).iterator();
      }
      Session s = state.getOption().orElse(null);
      while (rows.hasNext()) {
        long t = ((Instant) rows.next().get(1)).toEpochMilli();
        if (s != null && t > s.endMs() + GAP_MS) {
          out.add(new Closed(user, s.startMs(), s.endMs(), s.events()));
          s = null;
        }
        s = s == null ? new Session(t, t, 1) : new Session(Math.min(s.startMs(), t), Math.max(s.endMs(), t),
            s.events() + 1);
      }
      state.update(s);
      state.setTimeoutTimestamp(Math.max(s.endMs() + GAP_MS, state.getCurrentWatermarkMs()));
      return out.iterator();
    }
  }

  private ArbitraryStateBench() {}

  static Map<String, Object> run(Path dir, int users, int batches, int perBatch) {
    measure(dir.resolve("warm"), 10_000, 4, 20_000, "sessions-bench-warm");
    return measure(dir.resolve("run"), users, batches, perBatch, "sessions-bench");
  }

  private static Map<String, Object> measure(Path dir, int users, int batches, int perBatch, String name) {
    MemoryStream input = MemoryStream.named(name, EVENTS);
    AtomicLong emitted = new AtomicLong();
    List<QueryProgress> progress;
    long nanos = 0;
    long cpu0 = cpuNanos();
    Random random = new Random(11);
    long start = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      StreamingQuery q = session.readStream().format("memory").option("name", name).load()
          .withWatermark("ts", "1 minute").groupByKey("user")
          .flatMapGroupsWithState(new Sessions(), OutputMode.APPEND, Encoders.record(Session.class),
              Encoders.record(Closed.class), GroupStateTimeout.EventTimeTimeout())
          .writeStream().outputMode("append").queryName(name)
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .foreachBatch((batch, id) -> emitted.addAndGet(batch.size()))
          .start();
      for (int b = 0; b < batches; b++) {
        List<Row> batch = new ArrayList<>(perBatch);
        for (int i = 0; i < perBatch; i++) {
          batch.add(Row.of("user-" + random.nextInt(users),
              Instant.ofEpochMilli(start + b * 60_000L + (long) i * 60_000L / perBatch)));
        }
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
    long cpu = cpuNanos() - cpu0;
    long rows = progress.stream().mapToLong(QueryProgress::numInputRows).sum();
    List<QueryProgress> withData = progress.stream().filter(p -> p.numInputRows() > 0).toList();
    QueryProgress last = withData.get(withData.size() - 1);
    QueryProgress.StateOperatorProgress s = last.stateOperators().get(0);
    long[] commits = withData.stream().mapToLong(p -> p.stateOperators().get(0).commitTimeMs()).toArray();
    long maxRows = withData.stream().mapToLong(p -> p.stateOperators().get(0).numRowsTotal()).max().orElse(0);
    Map<String, Object> out = Json.object();
    out.put("benchmark", "flatMapGroupsWithState_sessions");
    out.put("distinct_users", users);
    out.put("events", rows);
    out.put("batches_with_data", withData.size());
    out.put("batches_total", progress.size());
    out.put("events_per_s", Math.round(rows / (nanos / 1e9)));
    out.put("process_cpu_s", Math.round(cpu / 1e7) / 100.0);
    out.put("sessions_emitted", emitted.get());
    out.put("state_rows_last_batch", s.numRowsTotal());
    out.put("state_rows_max", maxRows);
    out.put("state_memory_mb", Math.round(s.memoryUsedBytes() / 1e5) / 10.0);
    out.put("state_bytes_per_key", s.numRowsTotal() == 0 ? 0 : s.memoryUsedBytes() / s.numRowsTotal());
    out.put("state_commit_ms_median", median(commits));
    out.put("state_commit_ms_max", Arrays.stream(commits).max().orElse(0));
    out.put("batch_ms_median", median(withData.stream().mapToLong(QueryProgress::batchDuration).toArray()));
    return out;
  }

  private static long cpuNanos() {
    var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
