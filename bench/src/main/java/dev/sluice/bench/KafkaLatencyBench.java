package dev.sluice.bench;

import dev.sluice.bronze.BronzePipeline;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.runner.BatchHistory;
import dev.sluice.table.ChangeFeed;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;

/**
 * Kafka → Delta end-to-end latency: a producer thread sends {@code rate} JSON events/s for {@code seconds} into a
 * 4-partition topic of an in-process broker, each carrying its send time ({@code System.nanoTime}, same JVM); a
 * YAML bronze pipeline reads it with a {@code processingTime 0} trigger; a watcher thread notes when each table
 * version becomes visible (a new {@code latestVersion()}). Latency of an event = the time its commit became visible
 * − its send time, read back through the change feed's {@code _commit_version} (change data feed on for that). The first 5 s are warm-up.
 */
final class KafkaLatencyBench {
  private static final int PARTITIONS = 4;
  private static final long WARM_UP_NS = TimeUnit.SECONDS.toNanos(5);

  private KafkaLatencyBench() {}

  static Map<String, Object> run(Path dir, int rate, int seconds) throws Exception {
    try (KafkaClusterTestKit cluster = KafkaSinkBench.broker()) {
      String bootstrap = cluster.bootstrapServers();
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
        admin.createTopics(List.of(new NewTopic("events", PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
      }
      String yaml = "warehouse: " + dir.resolve("wh").toUri() + "\n"
          + "pipelines:\n"
          + "  - name: events_bronze\n"
          + "    layer: bronze\n"
          + "    source:\n"
          + "      format: kafka\n"
          + "      bootstrap_servers: \"" + bootstrap + "\"\n"
          + "      topics: [events]\n"
          + "      value_format: json\n"
          + "      schema: [{name: id, type: long}, {name: sent_ns, type: long}, {name: user, type: string},"
          + " {name: amount, type: double}]\n"
          + "    sink: {table: bronze/events}\n";
      SluiceConfig config = ConfigLoader.parse(yaml, "bench.yaml", Map.of());
      Map<Long, Long> visibleAt = new ConcurrentHashMap<>();
      AtomicBoolean done = new AtomicBoolean();
      long start;
      long sent;
      Table table;
      try (SluiceSession session = SluiceSession.create(); BatchHistory all = BatchHistory.of(session)) {
        table = session.table(config.tableUri("bronze/events").toString());
        // created up front with the change data feed on, so latencies can be read back by _commit_version
        table.create(BronzePipeline.tableSchema(config.pipeline("events_bronze").orElseThrow()).orElseThrow())
            .enableChangeDataFeed().commit();
        StreamingQuery q = BronzePipeline.start(session, config, config.pipeline("events_bronze").orElseThrow(),
            Trigger.processingTime(Duration.ZERO));
        Thread watcher = new Thread(() -> watch(table, visibleAt, done), "commit-watcher");
        watcher.start();
        start = System.nanoTime();
        sent = produce(bootstrap, rate, seconds, start);
        // let the last events land
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (all.inputRows(q) < sent && System.nanoTime() < deadline && q.isActive()) {
          Thread.sleep(20);
        }
        Thread.sleep(100);
        done.set(true);
        watcher.join();
        q.stop();
      }
      long[] latencies = latencies(table, visibleAt, start + WARM_UP_NS);
      Arrays.sort(latencies);
      Map<String, Object> out = Json.object();
      out.put("bench", "kafka_to_delta_latency");
      out.put("target_events_per_s", rate);
      out.put("seconds", seconds);
      out.put("events_sent", sent);
      out.put("events_measured", latencies.length);
      out.put("commits", visibleAt.size());
      out.put("latency_ms_median", ms(percentile(latencies, 0.5)));
      out.put("latency_ms_p90", ms(percentile(latencies, 0.9)));
      out.put("latency_ms_p99", ms(percentile(latencies, 0.99)));
      out.put("latency_ms_max", ms(latencies.length == 0 ? 0 : latencies[latencies.length - 1]));
      out.put("heap_max_mb", Runtime.getRuntime().maxMemory() >> 20);
      out.put("note", "single in-process broker in the same JVM; trigger processingTime 0; first 5 s excluded");
      return out;
    }
  }

  /** Notes the first time each new table version is seen. */
  private static void watch(Table table, Map<Long, Long> visibleAt, AtomicBoolean done) {
    long last = -1;
    while (!done.get()) {
      OptionalLong v = table.exists() ? table.latestVersion() : OptionalLong.empty();
      long now = System.nanoTime();
      if (v.isPresent() && v.getAsLong() > last) {
        for (long i = last + 1; i <= v.getAsLong(); i++) {
          visibleAt.put(i, now);
        }
        last = v.getAsLong();
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Sends {@code rate} events/s in 1 ms slices; returns how many were sent. */
  private static long produce(String bootstrap, int rate, int seconds, long start) throws Exception {
    Map<String, Object> config = Map.of("bootstrap.servers", bootstrap, "linger.ms", "1", "compression.type", "lz4");
    long total = (long) rate * seconds;
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (long i = 0; i < total; i++) {
        long due = start + (long) (i * 1e9 / rate);
        long wait = due - System.nanoTime();
        if (wait > 1_000_000) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        String json = "{\"id\":" + i + ",\"sent_ns\":" + System.nanoTime() + ",\"user\":\"u" + (i % 1000)
            + "\",\"amount\":" + (i % 500) * 1.5 + "}";
        producer.send(new ProducerRecord<>("events", (int) (i % PARTITIONS), null, json.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
    return total;
  }

  /** Each event's latency (ns) from its commit's visible time, for events sent after {@code from}. */
  private static long[] latencies(Table table, Map<Long, Long> visibleAt, long from) {
    long latest = table.latestVersion().orElseThrow();
    AtomicLong n = new AtomicLong();
    long[] out = new long[1 << 20];
    ChangeFeed feed = table.changes(0, latest);
    int sentAt = feed.schema().indexOf("sent_ns");
    int version = feed.schema().indexOf(ChangeFeed.COMMIT_VERSION);
    try (CloseableIterator<Row> rows = feed.rows()) {
      while (rows.hasNext()) {
        Row r = rows.next();
        Object s = r.get(sentAt);
        Long visible = visibleAt.get(((Number) r.get(version)).longValue());
        if (s == null || visible == null || (Long) s < from) {
          continue;
        }
        int i = (int) n.getAndIncrement();
        if (i == out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        out[i] = visible - (Long) s;
      }
    }
    return Arrays.copyOf(out, (int) n.get());
  }

  private static long percentile(long[] sorted, double p) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
  }

  private static double ms(long nanos) {
    return Math.round(nanos / 1e5) / 10.0;
  }
}
