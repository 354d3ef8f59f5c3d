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
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * Kafka sink throughput, at-least-once against exactly-once (transactions), on a single-node KRaft broker started in
 * this JVM (so the broker's CPU is part of the figures). The same landing files (JSON orders, {@code batches} files)
 * go through {@code format("kafka")} with one batch per file; rounds alternate the two guarantees so that a busy
 * machine slows both alike; medians are reported. {@code sink_rows_per_s} counts the batches' {@code addBatch}
 * time (projection + send + flush [+ commit]); {@code query_rows_per_s} the whole availableNow run.
 */
final class KafkaSinkBench {
  private static final int ROUNDS = 3;
  private static final StructType SCHEMA = StructType.of(StructField.of("id", PrimitiveType.LONG),
      StructField.of("status", PrimitiveType.STRING), StructField.of("amount", PrimitiveType.DOUBLE));

  private KafkaSinkBench() {}

  static Map<String, Object> run(Path dir, int rows, int batches) throws Exception {
    Path landing = dir.resolve("landing");
    writeLanding(landing, rows, batches);
    try (KafkaClusterTestKit cluster = broker()) {
      String bootstrap = cluster.bootstrapServers();
      // warm-up: class loading and JIT for both paths, on a tenth of the data
      Path warm = dir.resolve("warm");
      writeLanding(warm, rows / 10, 2);
      once(dir, warm, bootstrap, "at_least_once", "warm-a");
      once(dir, warm, bootstrap, "exactly_once", "warm-e");
      List<double[]> atLeastOnce = new ArrayList<>();
      List<double[]> exactlyOnce = new ArrayList<>();
      for (int r = 0; r < ROUNDS; r++) {
        atLeastOnce.add(once(dir, landing, bootstrap, "at_least_once", "a" + r));
        exactlyOnce.add(once(dir, landing, bootstrap, "exactly_once", "e" + r));
      }
      Map<String, Object> out = Json.object();
      out.put("bench", "kafka_sink");
      out.put("rows", rows);
      out.put("batches", batches);
      out.put("rounds", ROUNDS);
      figures(out, "at_least_once", atLeastOnce, rows);
      figures(out, "exactly_once", exactlyOnce, rows);
      out.put("exactly_once_vs_at_least_once_sink", Math.round(median(exactlyOnce, 0) / median(atLeastOnce, 0) * 1000)
          / 1000.0);
      out.put("note", "single in-process broker in the same JVM; loaded shared machine");
      return out;
    }
  }

  /** One availableNow run into a fresh topic; returns {sink seconds, query seconds, process CPU seconds}. */
  private static double[] once(Path dir, Path landing, String bootstrap, String guarantee, String name)
      throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(name, 4, (short) 1))).all().get(60, TimeUnit.SECONDS);
    }
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    double sinkMs = 0;
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      StreamingQuery q = session.readStream().format("json").schema(SCHEMA).option("maxFilesPerTrigger", "1")
          .load(landing.toString())
          .selectExpr("CAST(id AS STRING) AS key", "concat(status, ',', CAST(amount AS STRING)) AS value")
          .writeStream().format("kafka").queryName(name).trigger(Trigger.availableNow())
          .option("kafka.bootstrap.servers", bootstrap).option("topic", name).option("deliveryGuarantee", guarantee)
          .option("kafka.linger.ms", "5").option("checkpointLocation", dir.resolve("ckpt-" + name).toString())
          .start();
      q.awaitTermination();
      for (QueryProgress p : all.of(q)) {
        sinkMs += p.durationMs().getOrDefault("addBatch", 0L);
      }
    }
    return new double[] {sinkMs / 1000.0, (System.nanoTime() - t0) / 1e9, (os.getProcessCpuTime() - cpu0) / 1e9};
  }

  private static void figures(Map<String, Object> out, String prefix, List<double[]> runs, int rows) {
    out.put(prefix + "_sink_rows_per_s", Math.round(rows / median(runs, 0)));
    out.put(prefix + "_query_rows_per_s", Math.round(rows / median(runs, 1)));
    out.put(prefix + "_process_cpu_s", Math.round(median(runs, 2) * 100) / 100.0);
  }

  private static double median(List<double[]> runs, int i) {
    double[] v = runs.stream().mapToDouble(r -> r[i]).sorted().toArray();
    return v[v.length / 2];
  }

  static KafkaClusterTestKit broker() throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("transaction.state.log.num.partitions", "1")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    return cluster;
  }

  private static void writeLanding(Path dir, int rows, int files) throws Exception {
    Files.createDirectories(dir);
    int perFile = rows / files;
    for (int f = 0; f < files; f++) {
      Path file = dir.resolve(String.format("orders-%05d.jsonl", f));
      try (BufferedWriter w = Files.newBufferedWriter(file)) {
        for (int i = 0; i < perFile; i++) {
          long id = (long) f * perFile + i;
          w.write("{\"id\":" + id + ",\"status\":\"" + (id % 5 == 0 ? "test" : "open") + "\",\"amount\":" + id * 1.5
              + "}\n");
        }
      }
      file.toFile().setLastModified(1_700_000_000_000L + f * 1000L);
    }
  }
}
