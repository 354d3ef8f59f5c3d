package dev.sluice.orchestration.service.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.ServiceConfig;
import dev.sluice.orchestration.service.RunRecord;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The cluster store on a real PostgreSQL: its migrations, its run history, and its errors. */
class ClusterStoreIT {
  private static EmbeddedPostgres postgres;
  private static int databases;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  private static String freshDatabase() throws Exception {
    String db = "store_" + ++databases;
    try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + db);
    }
    return postgres.getJdbcUrl("postgres", db);
  }

  private static ServiceConfig service(String url) {
    return ConfigLoader.parse("warehouse: file:///tmp/wh\npipelines:\n"
        + "  - {name: b, layer: bronze, source: {format: json, path: in}, sink: {table: bronze/b}}\n"
        + "service: {job_store: {url: \"" + url + "\"}, instance_id: n1}\n", "test.yaml", Map.of()).service().orElseThrow();
  }

  @Test
  void nodesStartingTogetherMigrateOnceAndTheSchemaIsVersioned() throws Exception {
    String url = freshDatabase();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> opens = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        opens.add(pool.submit(() -> ClusterStore.open(service(url)).close()));
      }
      for (Future<?> f : opens) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    ClusterStore.open(service(url)).close();   // and again, later: nothing to do
    try (Connection c = java.sql.DriverManager.getConnection(url); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version FROM sluice_schema_version ORDER BY version")) {
      List<Integer> versions = new ArrayList<>();
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
      assertThat(versions).containsExactly(1, 2);
      try (ResultSet t = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'qrtz_%'")) {
        t.next();
        assertThat(t.getInt(1)).as("Quartz's 11 tables").isEqualTo(11);
      }
    }
  }

  @Test
  void aSchemaFromANewerSluiceIsRefused() throws Exception {
    String url = freshDatabase();
    ClusterStore.open(service(url)).close();
    try (Connection c = java.sql.DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("INSERT INTO sluice_schema_version (version, description) VALUES (99, 'from the future')");
    }
    assertThatThrownBy(() -> ClusterStore.open(service(url))).isInstanceOf(ClusterStoreException.class)
        .hasMessageContaining("its schema is at version 99, newer than this Sluice knows (2); upgrade Sluice");
  }

  @Test
  void anUnreachableDatabaseIsNamedWithTheFix() {
    assertThatThrownBy(() -> ClusterStore.open(service("jdbc:postgresql://127.0.0.1:1/sluice")))
        .isInstanceOf(ClusterStoreException.class)
        .hasMessageStartingWith("Cannot use the cluster job store at jdbc:postgresql://127.0.0.1:1/sluice: ")
        .hasMessageContaining("Connection")
        .hasMessageEndingWith("Check service.job_store in the config (url, user, password) and that PostgreSQL is"
            + " running and reachable from this host.");
  }

  @Test
  void theRunHistoryKeepsEveryFieldNewestFirst() throws Exception {
    try (ClusterStore store = ClusterStore.open(service(freshDatabase()))) {
      Map<String, Long> ledger = new LinkedHashMap<>();
      ledger.put("rowsIn", 10L);
      ledger.put("written", 7L);
      ledger.put("quarantined", 3L);
      Instant t0 = Instant.parse("2026-12-01T10:00:00.123456Z");
      RunRecord first = new RunRecord("orders", RunRecord.Cause.SCHEDULE, 1, t0, t0.plusSeconds(2),
          RunRecord.Outcome.SUCCEEDED, Optional.empty(), 2, 10, ledger, "node-a", Optional.of(t0.minusMillis(5)));
      RunRecord second = new RunRecord("orders", RunRecord.Cause.RETRY, 2, t0.plusSeconds(5), t0.plusSeconds(6),
          RunRecord.Outcome.FAILED, Optional.of("bad input"), 0, 0, Map.of(), "node-b", Optional.empty());
      store.runs().add(first);
      store.runs().add(second);
      store.runs().add(new RunRecord("other", RunRecord.Cause.MANUAL, 1, t0, t0, RunRecord.Outcome.SUCCEEDED,
          Optional.empty(), 0, 0));
      assertThat(store.runs().recent(Optional.of("orders"), 10)).containsExactly(second, first);
      assertThat(store.runs().runs("orders")).containsExactly(first, second);
      assertThat(store.runs().last("orders")).contains(second);
      assertThat(store.runs().recent(Optional.empty(), 2)).hasSize(2).first()
          .satisfies(r -> assertThat(r.pipeline()).isEqualTo("other"));
      assertThat(store.runs().last("orders").orElseThrow().ledger()).isEmpty();
      assertThat(store.runs().runs("orders").get(0).ledger().keySet()).containsExactly("rowsIn", "written",
          "quarantined");
      assertThat(store.runs().last("nobody")).isEmpty();
    }
  }
}
