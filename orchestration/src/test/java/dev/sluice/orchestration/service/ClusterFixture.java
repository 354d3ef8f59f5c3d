package dev.sluice.orchestration.service;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.ServiceConfig;
import dev.sluice.orchestration.service.cluster.ClusterStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One embedded PostgreSQL for a test class, a fresh database per test, and {@code serve} nodes in child JVMs on it.
 * The test closes the fixture, which kills the nodes left running.
 */
final class ClusterFixture implements AutoCloseable {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  final String url;
  private final String database;
  private final Map<String, Process> nodes = new java.util.LinkedHashMap<>();
  private final List<Path> logs = new ArrayList<>();
  private ClusterStore store;

  ClusterFixture(EmbeddedPostgres postgres) {
    String db = "cluster_" + DATABASES.incrementAndGet();
    try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + db);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    this.url = postgres.getJdbcUrl("postgres", db);
    this.database = db;
  }

  /** The config's {@code service:} section for the nodes: check-in every second. */
  static String serviceYaml() {
    return """
        service:
          job_store: {url: "${env:SLUICE_DB_URL}", user: postgres}
          instance_id: ${env:SLUICE_NODE}
          checkin_interval: 1 second
        """;
  }

  /** The service section as the test JVM reads it, to look at the run history. */
  ServiceConfig service() {
    String yaml = "warehouse: file:///tmp/unused\npipelines:\n"
        + "  - {name: b, layer: bronze, source: {format: json, path: in}, sink: {table: bronze/b}}\n" + serviceYaml();
    return ConfigLoader.parse(yaml, "test.yaml", Map.of("SLUICE_DB_URL", url, "SLUICE_NODE", "test"))
        .service().orElseThrow();
  }

  /** Starts node {@code name} on {@code config}; {@code extra} are {@link ClusterNode}'s optional arguments. */
  Process start(Path dir, String name, Path config, String... extra) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
        "-Dsluice.service.log=INFO", "-cp", System.getProperty("java.class.path"), ClusterNode.class.getName(),
        config.toString()));
    command.addAll(List.of(extra));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log(dir, name).toFile());
    pb.environment().put("SLUICE_DB_URL", url);
    pb.environment().put("SLUICE_NODE", name);
    try {
      Process p = pb.start();
      nodes.put(name, p);
      logs.add(log(dir, name));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path log(Path dir, String node) {
    return dir.resolve(node + ".log");
  }

  static List<String> lines(Path dir, String node) {
    try {
      Path f = log(dir, node);
      return Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The run history as every node and the CLI read it, newest first. */
  synchronized List<RunRecord> history(Optional<String> pipeline) {
    if (store == null) {
      store = ClusterStore.open(service());
    }
    return store.runs().recent(pipeline, 10_000);
  }

  /** Asks the nodes still running for a thread dump into their logs (SIGQUIT), for a failed test's post-mortem. */
  private void threadDumps() {
    boolean any = false;
    for (Process p : nodes.values()) {
      if (p.isAlive()) {
        try {
          new ProcessBuilder("kill", "-3", Long.toString(p.pid())).start().waitFor();
          any = true;
        } catch (IOException e) {
          return;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    if (any) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** {@code kill -9} of the node, waiting for it to be gone. */
  void kill(String node) throws InterruptedException {
    Process p = nodes.get(node);
    p.destroyForcibly();   // SIGKILL: no shutdown hook, no lease release, no Quartz goodbye
    p.waitFor(10, TimeUnit.SECONDS);
  }

  /** Stops each node with SIGTERM, waiting for it. */
  void stopAll() throws InterruptedException {
    nodes.values().forEach(Process::destroy);
    for (Process p : nodes.values()) {
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Kills the nodes left running and keeps their logs under {@code target/cluster-logs/}. */
  @Override
  public synchronized void close() {
    threadDumps();
    nodes.values().forEach(Process::destroyForcibly);
    if (store != null) {
      store.close();
    }
    Path keep = Path.of("target", "cluster-logs", database);
    try {
      Files.createDirectories(keep);
      for (Path log : logs) {
        if (Files.exists(log)) {
          Files.copy(log, keep.resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      System.err.println("Could not keep the node logs: " + e);
    }
  }
}
