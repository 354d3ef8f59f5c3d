package dev.sluice.bench;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StateReader;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * State stores at scale ({@code bench/run.sh state [--keys 10000000] [--state-store inmemory|rocksdb|both]}):
 * {@code dropDuplicatesWithinWatermark(value)} over {@code keys} distinct ids from the rate source (250,000 a
 * batch, one event-time minute a batch, a 1-hour watermark so that every id stays in state), then a 1-minute
 * tumbling count by {@code value % 100000}; per provider: events/s, state bytes per key in the heap (heap used
 * after a full GC with the query's state loaded, minus the same before the query) and on disk (the checkpoint's
 * state folder, and RocksDB's local SST files), the peak heap of the run, state commit ms per batch; then the
 * recovery: the wall and CPU time to rebuild every operator's state from the checkpoint into an empty local folder
 * (the newest snapshot plus the later changelogs, through the state reader), and the time a restarted query (a
 * new session, an empty local working directory) takes to do that and run one batch.
 */
final class StateStoreBench {
  private static final long PER_BATCH = 250_000;
  /** The default of {@code stateStore.snapshotInterval}. */
  private static final long SNAPSHOT_INTERVAL = 10;

  private StateStoreBench() {}

  static List<Map<String, Object>> run(Path dir, long keys, String providers) {
    List<StateStoreType> types = providers.equals("both") ? List.of(StateStoreType.IN_MEMORY, StateStoreType.ROCKSDB)
        : List.of(StateStoreType.of(providers, "--state-store"));
    // warm-up on a small stream so that the measured runs see a warm JVM
    types.forEach(t -> measure(dir.resolve("warm-" + t), 500_000, t));
    return types.stream().map(t -> measure(dir.resolve("run-" + t), keys, t)).toList();
  }

  private static StreamingQuery start(SluiceSession session, Path dir, AtomicLong emitted) {
    return session.readStream().format("rate").option("rowsPerBatch", Long.toString(PER_BATCH))
        .option("startTimestamp", "1700000000000").option("advanceMillisPerBatch", "60000").load()
        .withColumn("key", "value % 100000")
        .withWatermark("timestamp", "1 hour")
        .dropDuplicatesWithinWatermark("value")
        .groupBy("window(timestamp, '1 minute')", "key").agg("count(*) AS n")
        .writeStream().outputMode("append").queryName("state-bench")
        .option("checkpointLocation", dir.resolve("checkpoint").toString())
        .option("minBatchesToRetain", "10")
        .trigger(Trigger.processingTime("0 seconds"))
        .foreachBatch((batch, id) -> emitted.addAndGet(batch.size()))
        .start();
  }

  private static void awaitBatch(StreamingQuery q, long batchId) {
    while (q.lastProgress().map(QueryProgress::batchId).orElse(-1L) < batchId) {
      if (q.exception().isPresent()) {
        throw new IllegalStateException("The bench query failed", q.exception().get());
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static Map<String, Object> measure(Path dir, long keys, StateStoreType type) {
    long batches = (keys + PER_BATCH - 1) / PER_BATCH;
    StateStoreSettings settings = StateStoreSettings.of(type).withLocalDir(dir.resolve("local"));
    AtomicLong emitted = new AtomicLong();
    long heapBefore = heapAfterGc();
    Map<String, Object> out = Json.object();
    out.put("benchmark", "state_store_dedup_window_aggregation");
    out.put("state_store", type.optionName());
    out.put("rocksdb_memory_mb", type == StateStoreType.ROCKSDB ? settings.rocksDbMemoryBytes() >> 20 : 0);
    out.put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20);
    resetPeakHeap();
    try (SluiceSession session = SluiceSession.builder().stateStore(settings).build();
        BatchHistory all = BatchHistory.of(session)) {
      long cpu0 = cpu();
      long t0 = System.nanoTime();
      StreamingQuery q = start(session, dir, emitted);
      awaitBatch(q, batches - 1);
      long nanos = System.nanoTime() - t0;
      long cpu = cpu() - cpu0;
      long heapLoaded = heapAfterGc(); // the query still runs: its state is loaded
      q.stop();
      List<QueryProgress> progress = all.of(q).stream().filter(p -> p.numInputRows() > 0).toList();
      QueryProgress last = progress.get(progress.size() - 1);
      long events = progress.stream().mapToLong(QueryProgress::numInputRows).sum();
      long stateRows = last.stateOperators().stream().mapToLong(QueryProgress.StateOperatorProgress::numRowsTotal).sum();
      out.put("events", events);
      out.put("batches", progress.size());
      out.put("dedup_keys", last.stateOperators().get(0).numRowsTotal());
      out.put("aggregation_groups", last.stateOperators().get(1).numRowsTotal());
      out.put("events_per_s", Math.round(events / (nanos / 1e9)));
      out.put("cpu_s", Math.round(cpu / 1e7) / 100.0);
      out.put("heap_bytes_per_key", Math.max(0, heapLoaded - heapBefore) / stateRows);
      out.put("heap_used_after_gc_mb", heapLoaded >> 20);
      long checkpointBytes = size(dir.resolve("checkpoint/state"));
      out.put("checkpoint_state_mb", checkpointBytes >> 20);
      out.put("checkpoint_bytes_per_key", checkpointBytes / stateRows);
      long sst = last.stateOperators().stream()
          .mapToLong(s -> s.customMetrics().getOrDefault("rocksdbSstFileSize", 0L)).sum();
      out.put("local_sst_bytes_per_key", sst / stateRows);
      out.put("memory_used_mb", last.stateOperators().stream()
          .mapToLong(QueryProgress.StateOperatorProgress::memoryUsedBytes).max().orElse(0) >> 20);
      long[] commits = progress.stream().mapToLong(p -> p.stateOperators().stream()
          .mapToLong(QueryProgress.StateOperatorProgress::commitTimeMs).sum()).sorted().toArray();
      out.put("state_commit_ms_per_batch_median", commits[commits.length / 2]);
      out.put("state_commit_ms_per_batch_max", commits[commits.length - 1]);
      out.put("batch_ms_median", median(progress.stream().mapToLong(QueryProgress::batchDuration).toArray()));
      out.put("heap_peak_mb", peakHeap() >> 20);
      out.putAll(rebuild(session, dir.resolve("checkpoint")));
    }
    StateStoreSettings fresh = settings.withLocalDir(dir.resolve("local-restart"));
    try (SluiceSession session = SluiceSession.builder().stateStore(fresh).build()) {
      long t0 = System.nanoTime();
      StreamingQuery q = start(session, dir, emitted);
      awaitBatch(q, batches);
      long recovery = (System.nanoTime() - t0) / 1_000_000;
      q.stop();
      out.put("restart_first_batch_ms", recovery);
    }
    return out;
  }

  /**
   * Opens each operator's state, so rebuilding it into an empty temporary folder: after the last batch, and after
   * the batch whose state is furthest from a snapshot (the snapshot before it plus 9 changelogs), the worst case.
   */
  private static Map<String, Object> rebuild(SluiceSession session, Path checkpoint) {
    StateReader reader = session.readState(checkpoint.toString());
    Map<String, Object> out = Json.object();
    long latest = reader.metadata().get(0).latestBatch().orElseThrow();
    long earliest = reader.metadata().get(0).earliestBatch().orElseThrow();
    // batch b leaves state version b + 1; snapshots are every SNAPSHOT_INTERVAL versions
    long worst = latest + 1 - Math.floorMod(latest + 1 - (SNAPSHOT_INTERVAL - 1), SNAPSHOT_INTERVAL) - 1;
    out.put("recovery_latest_batch", latest);
    rebuild(reader, latest, out, "recovery");
    if (worst >= earliest) {
      out.put("recovery_worst_batch", worst);
      rebuild(reader, worst, out, "recovery_worst");
    }
    return out;
  }

  private static void rebuild(StateReader reader, long batch, Map<String, Object> out, String name) {
    long cpu0 = cpu();
    long t0 = System.nanoTime();
    for (StateReader.OperatorState op : reader.metadata()) {
      try (CloseableIterator<Row> rows = reader.operator(op.metadata().operatorId()).batch(batch).iterator()) {
        rows.hasNext();
      }
    }
    out.put(name + "_ms", (System.nanoTime() - t0) / 1_000_000);
    out.put(name + "_cpu_s", Math.round((cpu() - cpu0) / 1e7) / 100.0);
  }

  private static void resetPeakHeap() {
    ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
        .forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  /** The sum of the heap pools' peaks: an upper bound of the heap in use at any one time. */
  private static long peakHeap() {
    return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
        .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long size(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
