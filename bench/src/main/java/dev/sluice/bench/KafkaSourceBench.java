package dev.sluice.bench;

import dev.sluice.bronze.BronzePipeline;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;

/**
 * Kafka → bronze: {@code events} JSON order events produced into a 4-partition topic of an in-process KRaft broker
 * (same JVM: its CPU is part of the figures), then read by a YAML bronze pipeline ({@code format: kafka}) with a
 * {@code processingTime 0} trigger and {@code max_offsets_per_trigger} until every event is in the bronze table.
 * Reports events/s over the whole run and the per-batch latency ({@code batchDuration}: read, parse, write,
 * commit) median and p90.
 */
final class KafkaSourceBench {
  private static final int PARTITIONS = 4;

  private KafkaSourceBench() {}

  static Map<String, Object> run(Path dir, int events, int perBatch) throws Exception {
    try (KafkaClusterTestKit cluster = KafkaSinkBench.broker()) {
      String bootstrap = cluster.bootstrapServers();
      produce(bootstrap, "warm", events / 10);
      produce(bootstrap, "orders", events);
      once(dir, bootstrap, "warm", events / 10, perBatch); // class loading and JIT
      long cpu0 = cpu();
      long t0 = System.nanoTime();
      List<QueryProgress> progress = once(dir, bootstrap, "orders", events, perBatch);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long[] latencies = progress.stream().filter(p -> p.numInputRows() > 0).mapToLong(QueryProgress::batchDuration)
          .sorted().toArray();
      Map<String, Object> out = Json.object();
      out.put("bench", "kafka_source_bronze");
      out.put("events", events);
      out.put("partitions", PARTITIONS);
      out.put("max_offsets_per_trigger", perBatch);
      out.put("batches", latencies.length);
      out.put("events_per_s", Math.round(events / seconds));
      out.put("batch_latency_ms_median", latencies[latencies.length / 2]);
      out.put("batch_latency_ms_p90", latencies[(int) Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.9) - 1)]);
      out.put("process_cpu_s", Math.round((cpu() - cpu0) / 1e7) / 100.0);
      out.put("heap_max_mb", Runtime.getRuntime().maxMemory() >> 20);
      out.put("note", "single in-process broker in the same JVM; loaded shared machine");
      return out;
    }
  }

  /** Runs the bronze pipeline until {@code events} rows are in; returns its progress. */
  private static List<QueryProgress> once(Path dir, String bootstrap, String topic, int events, int perBatch)
      throws Exception {
    String yaml = "warehouse: " + dir.resolve("wh-" + topic).toUri() + "\n"
        + "pipelines:\n"
        + "  - name: " + topic + "_bronze\n"
        + "    layer: bronze\n"
        + "    source:\n"
        + "      format: kafka\n"
        + "      bootstrap_servers: \"" + bootstrap + "\"\n"
        + "      topics: [" + topic + "]\n"
        + "      value_format: json\n"
        + "      schema: [{name: order_id, type: long}, {name: customer, type: string}, {name: amount, type: double},"
        + " {name: status, type: string}, {name: updated_at, type: timestamp}]\n"
        + "      max_offsets_per_trigger: " + perBatch + "\n"
        + "    sink: {table: bronze/" + topic + "}\n";
    SluiceConfig config = ConfigLoader.parse(yaml, "bench.yaml", Map.of());
    try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
      StreamingQuery q = BronzePipeline.start(session, config, config.pipeline(topic + "_bronze").orElseThrow(),
          Trigger.processingTime(Duration.ZERO));
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
      while (all.inputRows(q) < events) {
        if (!q.isActive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("The bronze query stopped or timed out: " + q.exception());
        }
        Thread.sleep(20);
      }
      q.stop();
      return all.of(q);
    }
  }

  private static void produce(String bootstrap, String topic, int events) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
    }
    Map<String, Object> config = Map.of("bootstrap.servers", bootstrap, "linger.ms", "20", "batch.size", "262144",
        "compression.type", "lz4");
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < events; i++) {
        String json = "{\"order_id\":" + i + ",\"customer\":\"c" + (i % 1000) + "\",\"amount\":" + (i % 500) * 1.5
            + ",\"status\":\"" + (i % 7 == 0 ? "shipped" : "open") + "\",\"updated_at\":\"2026-11-30T10:"
            + String.format("%02d:%02d", (i / 60) % 60, i % 60) + "Z\"}";
        producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, json.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
