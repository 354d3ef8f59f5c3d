package dev.sluice.bench;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Streaming engine figures: the fixed cost of a micro-batch (50 tiny files, one per batch) and the
 * throughput of files → Delta on JSON lines in the orders format (shared/bench/ORDERS-FORMAT.md).
 */
final class IngestBench {
  static final StructType ORDERS = StructType.of(
      StructField.of("order_id", PrimitiveType.STRING),
      StructField.of("customer_id", PrimitiveType.STRING),
      StructField.of("event_time", PrimitiveType.TIMESTAMP),
      StructField.of("amount", PrimitiveType.DOUBLE),
      StructField.of("status", PrimitiveType.STRING),
      StructField.of("updated_at", PrimitiveType.TIMESTAMP));

  /** Issue 10: a micro-batch's fixed cost at most this, median. */
  static final long TARGET_BATCH_MS = 20;

  private IngestBench() {}

  static Map<String, Object> batchOverhead(Path dir) throws IOException {
    writeOrders(dir.resolve("warm"), 5, 10, 1);
    run(dir.resolve("warm"), dir.resolve("warm-out"), 1);
    writeOrders(dir.resolve("tiny"), 50, 10, 2);
    List<QueryProgress> progress = run(dir.resolve("tiny"), dir.resolve("tiny-out"), 1);
    long[] durations = progress.stream().mapToLong(QueryProgress::batchDuration).sorted().toArray();
    Map<String, Object> out = Json.object();
    out.put("benchmark", "micro_batch_fixed_cost");
    out.put("batches", durations.length);
    out.put("rows_per_batch", 10);
    out.put("median_batch_ms", durations[durations.length / 2]);
    out.put("p90_batch_ms", durations[(int) (durations.length * 0.9)]);
    out.put("min_batch_ms", durations[0]);
    out.put("target_median_batch_ms", TARGET_BATCH_MS);
    out.put("pass", durations[durations.length / 2] <= TARGET_BATCH_MS);
    return out;
  }

  static Map<String, Object> throughput(Path dir, int lines, int files) throws IOException {
    writeOrders(dir.resolve("warm2"), 2, 20_000, 3);
    run(dir.resolve("warm2"), dir.resolve("warm2-out"), 1);
    writeOrders(dir.resolve("orders"), files, lines / files, 4);
    long t0 = System.nanoTime();
    List<QueryProgress> progress = run(dir.resolve("orders"), dir.resolve("orders-out"), 5);
    double seconds = (System.nanoTime() - t0) / 1e9;
    long rows = progress.stream().mapToLong(QueryProgress::numInputRows).sum();
    Map<String, Object> out = Json.object();
    out.put("benchmark", "files_to_delta_throughput");
    out.put("rows", rows);
    out.put("files", files);
    out.put("batches", progress.size());
    out.put("wall_s", Math.round(seconds * 100) / 100.0);
    out.put("rows_per_s", Math.round(rows / seconds));
    out.put("input_mb", Math.round(folderBytes(dir.resolve("orders")) / 1e6));
    return out;
  }

  private static List<QueryProgress> run(Path landing, Path table, int filesPerTrigger) {
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      StreamingQuery q = session.readStream().format("json").schema(ORDERS)
          .option("maxFilesPerTrigger", Integer.toString(filesPerTrigger)).load(landing.toString())
          .writeStream().queryName("bench").trigger(Trigger.availableNow()).toTable(table.toString());
      q.awaitTermination();
      return all.of(q);
    }
  }

  /** Order events as in ORDERS-FORMAT.md (new orders only: the engine cost doesn't depend on the mix). */
  static void writeOrders(Path dir, int files, int perFile, long seed) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(seed);
    long start = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    long n = 0;
    String[] status = {"created", "paid", "shipped", "cancelled", "refunded"};
    for (int f = 0; f < files; f++) {
      Path file = dir.resolve(String.format("orders-%05d.jsonl", f));
      try (BufferedWriter w = Files.newBufferedWriter(file)) {
        for (int i = 0; i < perFile; i++, n++) {
          String t = Instant.ofEpochMilli(start + n * 50).toString();
          w.write("{\"order_id\":\"o-" + String.format("%010d", n) + "\",\"customer_id\":\"c-"
              + String.format("%05d", random.nextInt(10_000)) + "\",\"event_time\":\"" + t + "\",\"amount\":"
              + (500 + random.nextInt(49_501)) / 100.0 + ",\"status\":\"" + status[(int) (n % 5 == 0 ? 0 : n % 5)]
              + "\",\"updated_at\":\"" + t + "\"}\n");
        }
      }
      file.toFile().setLastModified(1_700_000_000_000L + f * 1000L);
    }
  }

  private static long folderBytes(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.mapToLong(p -> p.toFile().length()).sum();
    }
  }

}
