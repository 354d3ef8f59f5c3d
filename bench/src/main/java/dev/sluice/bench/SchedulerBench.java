package dev.sluice.bench;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunRecord;
import dev.sluice.orchestration.service.ServiceOptions;
import dev.sluice.orchestration.service.SluiceService;
import dev.sluice.orchestration.service.cluster.ClusterStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Scheduler overhead of the cluster store: {@code pipelines} bronze pipelines on a 1-second schedule, served by
 * {@code nodes} service nodes (in this JVM, each with its own Quartz scheduler, connection pool and session) on one
 * PostgreSQL, for {@code seconds}. Each fire is a real availableNow run over an empty input folder (checkpoint,
 * lease, file listing, no batch), so the figures are the service's cost per fire, not a pipeline's work.
 *
 * <p>Reports fires/s (scheduled fires that ran, over the measured window), fire latency (run start − the time
 * Quartz scheduled the fire: median, p99, max), misfires (fires that started more than 1 s late) and database
 * round trips per fire (statement executions, commits and rollbacks through the nodes' pools, counted by a JDBC
 * proxy: Quartz's trigger acquisition, firing and completion, the cluster check-ins, and the run-history insert).
 * The first 10 s are a warm-up and not measured.
 */
final class SchedulerBench {
  private static final Duration WARM_UP = Duration.ofSeconds(10);

  private SchedulerBench() {}

  static Map<String, Object> run(Path dir, int pipelines, int nodes, int seconds, Optional<String> dbUrl)
      throws Exception {
    EmbeddedPostgres postgres = dbUrl.isPresent() ? null : EmbeddedPostgres.builder().start();
    String url = dbUrl.orElseGet(() -> postgres.getJdbcUrl("postgres", "postgres"));
    CountingDataSource counter = new CountingDataSource();
    List<ClusterStore> stores = new ArrayList<>();
    List<SluiceSession> sessions = new ArrayList<>();
    List<SluiceService> services = new ArrayList<>();
    try {
      for (int n = 0; n < nodes; n++) {
        SluiceConfig config = config(dir, pipelines, url, "node-" + n);
        ClusterStore store = ClusterStore.open(config.service().orElseThrow(), counter::wrap);
        stores.add(store);
        SluiceSession session = SluiceSession.create();
        sessions.add(session);
        services.add(SluiceService.start(config, session, ServiceOptions.defaults().withThreads(Integer.getInteger("bench.threads", 8)), store));
      }
      Thread.sleep(WARM_UP.toMillis());
      Instant from = Instant.now();
      long tripsBefore = counter.roundTrips.sum();
      Thread.sleep(seconds * 1000L);
      Instant to = Instant.now();
      long trips = counter.roundTrips.sum() - tripsBefore;
      List<RunRecord> runs = stores.get(0).runs().recent(Optional.empty(), Integer.MAX_VALUE).stream()
          .filter(r -> r.scheduledFor().isPresent() && !r.start().isBefore(from) && r.start().isBefore(to))
          .toList();
      List<Long> latency = runs.stream().map(r -> Duration.between(r.scheduledFor().get(), r.start()).toMillis())
          .sorted().toList();
      Map<String, Object> out = Json.object();
      out.put("bench", "scheduler");
      out.put("pipelines", pipelines);
      out.put("nodes", nodes);
      out.put("seconds", seconds);
      out.put("fires", runs.size());
      out.put("firesPerSecond", Math.round(runs.size() * 10.0 / seconds) / 10.0);
      out.put("expectedFiresPerSecond", pipelines);
      out.put("fireLatencyMedianMs", percentile(latency, 0.5));
      out.put("fireLatencyP99Ms", percentile(latency, 0.99));
      out.put("fireLatencyMaxMs", latency.isEmpty() ? 0 : latency.get(latency.size() - 1));
      out.put("misfires", latency.stream().filter(l -> l > 1000).count());
      out.put("failed", runs.stream().filter(r -> !r.succeeded()).count());
      out.put("dbRoundTrips", trips);
      out.put("dbRoundTripsPerFire", runs.isEmpty() ? 0 : Math.round(trips * 10.0 / runs.size()) / 10.0);
      out.put("firesByNode", runs.stream().collect(Collectors.groupingBy(RunRecord::node, java.util.TreeMap::new,
          Collectors.counting())).toString());
      out.put("runMedianMs", percentile(runs.stream().map(r -> r.duration().toMillis()).sorted().toList(), 0.5));
      return out;
    } finally {
      services.forEach(SluiceService::stop);
      sessions.forEach(SluiceSession::close);
      stores.forEach(ClusterStore::close);
      if (postgres != null) {
        postgres.close();
      }
    }
  }

  private static long percentile(List<Long> sorted, double p) {
    return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
  }

  private static SluiceConfig config(Path dir, int pipelines, String url, String node) throws Exception {
    StringBuilder yaml = new StringBuilder("warehouse: ").append(dir.resolve("warehouse").toUri()).append('\n')
        .append("pipelines:\n");
    for (int i = 0; i < pipelines; i++) {
      Path input = Files.createDirectories(dir.resolve("input").resolve("p" + i));
      yaml.append("  - name: p").append(i).append('\n')
          .append("    layer: bronze\n")
          .append("    source: {format: json, path: ").append(input).append(", schema: [{name: id, type: string}]}\n")
          .append("    sink: {table: bronze/p").append(i).append("}\n")
          .append("    schedule: {every: 1 second}\n");
    }
    yaml.append("service:\n  job_store: {url: \"").append(url).append("\", pool_size: 10}\n")
        .append("  instance_id: ").append(node).append('\n')
        .append("  checkin_interval: 2 seconds\n");
    return ConfigLoader.parse(yaml.toString(), "scheduler-bench.yaml", Map.of());
  }
}
