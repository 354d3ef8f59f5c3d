package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunRecord.Cause;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two service nodes in this JVM on one embedded PostgreSQL share one schedule — 16 fires, none twice, none left
 * out — and one run history. {@code ClusterSchedulingIT} runs nodes in separate JVMs and kills one.
 */
class TwoNodesIT {
  @TempDir Path dir;

  @Test
  void twoNodesShareOneScheduleAndOneHistory() throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        ClusterFixture cluster = new ClusterFixture(postgres)) {
      ServiceFixture f = new ServiceFixture(dir);
      f.land(2, 5);
      SluiceConfig a = node(f, cluster, "n1");
      SluiceConfig b = node(f, cluster, "n2");
      try (SluiceSession sa = SluiceSession.create(); SluiceSession sb = SluiceSession.create();
          SluiceService one = SluiceService.start(a, sa, ServiceOptions.defaults());
          SluiceService two = SluiceService.start(b, sb, ServiceOptions.defaults())) {
        assertThat(List.of(one.node(), two.node())).containsExactly("n1", "n2");
        assertThat(one.clustered()).isTrue();
        ServiceFixture.await("16 scheduled fires", Duration.ofSeconds(25), () -> one.runStore()
            .recent(Optional.of(BRONZE), 100).stream().filter(r -> r.cause() == Cause.SCHEDULE).count() >= 16);
        assertThat(two.runs(BRONZE)).as("both nodes read the one history").isEqualTo(one.runs(BRONZE));
      }
      List<Instant> due = cluster.history(Optional.of(BRONZE)).stream().filter(r -> r.cause() == Cause.SCHEDULE)
          .map(r -> r.scheduledFor().orElseThrow()).sorted().toList();
      assertThat(due).doesNotHaveDuplicates();
      long steps = 0;
      for (int i = 1; i < due.size(); i++) {
        Duration step = Duration.between(due.get(i - 1), due.get(i));
        assertThat(step).as("%s", due).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        steps += step.equals(Duration.ofMillis(500)) ? 1 : 0;
      }
      // a fire held back by a run outlasting the interval fires once, late (the misfire rule); most are on time
      assertThat(steps).as("fires on the 500 ms grid: %s", due).isGreaterThanOrEqualTo(due.size() / 2);
      try (SluiceSession session = SluiceSession.create()) {
        dev.sluice.orchestration.PipelineRunner.runAvailableNow(session, f.config("{every: 1 hour}"), List.of());
        f.check(session);
      }
    }
  }

  private SluiceConfig node(ServiceFixture f, ClusterFixture cluster, String id) {
    return ConfigLoader.parse(f.yaml("{every: 500 ms}") + ClusterFixture.serviceYaml(), "test.yaml",
        Map.of("SLUICE_DB_URL", cluster.url, "SLUICE_NODE", id));
  }
}
