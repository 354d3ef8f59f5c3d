package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static dev.sluice.orchestration.service.ServiceFixture.GOLD;
import static dev.sluice.orchestration.service.ServiceFixture.SILVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunRecord.Cause;
import dev.sluice.orchestration.service.RunRecord.Outcome;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several {@code serve} nodes in separate JVMs on one PostgreSQL (Quartz's clustered JDBC job store): each fire
 * runs on exactly one node, a node killed mid-run has its run finished by another, and {@code after} chains hold.
 */
class ClusterSchedulingIT {
  private static EmbeddedPostgres postgres;
  @TempDir Path dir;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  private Path writeConfig(ServiceFixture f, String bronzeSchedule) throws Exception {
    return Files.writeString(dir.resolve("pipelines.yaml"), f.yaml(bronzeSchedule) + ClusterFixture.serviceYaml());
  }

  @Test
  void threeNodesRunEveryScheduledFireExactlyOnceAndTheChainKeepsUp() throws Exception {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(1, 5);
    Path config = writeConfig(f, "{every: 1 second}");
    try (ClusterFixture cluster = new ClusterFixture(postgres)) {
      for (String node : List.of("a", "b", "c")) {
        cluster.start(dir, node, config);
      }
      int[] seen = {0};
      ServiceFixture.await("16 scheduled bronze fires", Duration.ofSeconds(120), () -> {
        long fired = cluster.history(Optional.of(BRONZE)).stream().filter(r -> r.cause() == Cause.SCHEDULE).count();
        if (fired >= seen[0] + 3) {
          seen[0] = (int) fired;
          f.land(1, 5);   // new input now and then: the tables show each file landed exactly once
        }
        return fired >= 16;
      });
      cluster.stopAll();
      List<RunRecord> all = cluster.history(Optional.empty());
      List<RunRecord> fires = cluster.history(Optional.of(BRONZE)).stream().filter(r -> r.cause() == Cause.SCHEDULE)
          .sorted(java.util.Comparator.comparing(r -> r.scheduledFor().orElseThrow())).toList();
      List<Instant> due = fires.stream().map(r -> r.scheduledFor().orElseThrow()).toList();
      assertThat(due).as("no fire ran twice (on two nodes)").doesNotHaveDuplicates();
      for (int i = 1; i < due.size(); i++) {
        Duration step = Duration.between(due.get(i - 1), due.get(i));
        // One second apart, or later when the previous run outlasted the interval: then the fire due while it ran
        // fired once as soon as it ended (the misfire rule), and the schedule went on from there.
        RunRecord previous = fires.get(i - 1);
        assertThat(step.equals(Duration.ofSeconds(1))
            || step.compareTo(Duration.ofSeconds(1)) > 0 && previous.end().isAfter(due.get(i - 1).plusSeconds(1))
                && !due.get(i).isAfter(previous.end().plusSeconds(1)))
            .as("no fire left out between %s and %s: %s", previous, fires.get(i), due).isTrue();
      }
      assertThat(all).as("no run failed: %s", all).noneMatch(r -> r.outcome() == Outcome.FAILED);
      Set<String> nodes = all.stream().map(RunRecord::node).collect(Collectors.toSet());
      // Quartz gives a fire to whichever node acquires it first, so one idle node may take them all: only that each
      // run is recorded by one of the cluster's nodes is certain
      assertThat(nodes).as("runs recorded by the cluster's nodes").isNotEmpty().isSubsetOf("a", "b", "c");
      // after chains across nodes: every downstream run started after its upstream's latest success, wherever it ran
      for (RunRecord gold : all.stream().filter(r -> r.pipeline().equals(GOLD)).toList()) {
        assertThat(all).as("a silver success before %s", gold)
            .anyMatch(r -> r.pipeline().equals(SILVER) && r.succeeded() && !r.end().isAfter(gold.start()));
      }
      assertThat(all).filteredOn(r -> r.pipeline().equals(GOLD) && r.succeeded()).isNotEmpty();
      // the last runs of the chain may have been stopped with the nodes: finish the backlog and check the tables
      try (SluiceSession session = SluiceSession.create()) {
        dev.sluice.orchestration.PipelineRunner.runAvailableNow(session, f.config("{every: 1 hour}"), List.of());
        f.check(session);
      }
    }
  }

  /** {@code sluice runs} and {@code sluice status} read the history every node wrote. */
  private void cliShowsTheClusterHistory(ServiceFixture f, ClusterFixture cluster, String killed) throws Exception {
    Path config = Files.writeString(dir.resolve("cli.yaml"), f.yaml("{every: 1 hour}")
        + "service: {job_store: {url: \"" + cluster.url + "\", user: postgres}}\n");
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    int code = dev.sluice.orchestration.cli.SluiceCli.execute(new String[] {"runs", config.toString(), "--pipeline",
        BRONZE, "--json"}, new java.io.PrintWriter(out), new java.io.PrintWriter(err), false);
    assertThat(code).as(err.toString()).isZero();
    com.fasterxml.jackson.databind.JsonNode runs = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).path("cause").asText()).isEqualTo("recovery");
    assertThat(runs.get(0).path("node").asText()).isNotEqualTo(killed).isIn("a", "b");
    assertThat(runs.get(0).path("ledger").path("written").asLong()).isEqualTo(runs.get(0).path("rows").asLong());

    out.getBuffer().setLength(0);
    code = dev.sluice.orchestration.cli.SluiceCli.execute(new String[] {"status", config.toString()},
        new java.io.PrintWriter(out), new java.io.PrintWriter(err), false);
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Latest runs of the cluster", BRONZE + ": last service run succeeded")
        .contains("recovery");
  }

  @Test
  void aNodeKilledMidRunHasItsRunFinishedByAnotherNodeAndTheChainFollows() throws Exception {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(6, 10);
    Path config = writeConfig(f, "{every: 1 hour}");
    try (ClusterFixture cluster = new ClusterFixture(postgres)) {
      List<String> names = List.of("a", "b");
      for (String node : names) {
        cluster.start(dir, node, config, BRONZE, "300");
      }
      String[] victim = new String[1];
      ServiceFixture.await("bronze's batch 2 on a node", Duration.ofSeconds(90), () -> {
        for (String n : names) {
          if (ClusterFixture.lines(dir, n).contains("batch " + BRONZE + " 2")) {
            victim[0] = n;
            return true;
          }
        }
        return false;
      });
      Instant killedAt = Instant.now();
      cluster.kill(victim[0]);
      ServiceFixture.await("gold after the recovered bronze run", Duration.ofSeconds(90),
          () -> cluster.history(Optional.of(GOLD)).stream().anyMatch(RunRecord::succeeded));
      List<RunRecord> all = cluster.history(Optional.empty());
      assertThat(all).as("the killed node recorded nothing; nothing failed: %s", all)
          .noneMatch(r -> r.node().equals(victim[0]) || r.outcome() == Outcome.FAILED);
      RunRecord bronze = cluster.history(Optional.of(BRONZE)).get(0);
      assertThat(bronze.cause()).isEqualTo(Cause.RECOVERY);
      assertThat(bronze.succeeded()).isTrue();
      assertThat(bronze.start()).as("re-fired within the check-in interval and the lease timeout")
          .isBefore(killedAt.plusSeconds(15));
      assertThat(bronze.batches()).as("the run resumed: the killed node's batches were not done again")
          .isLessThan(6);
      RunRecord silver = cluster.history(Optional.of(SILVER)).get(0);
      RunRecord gold = cluster.history(Optional.of(GOLD)).get(0);
      assertThat(silver.start()).isAfterOrEqualTo(bronze.end());
      assertThat(gold.start()).isAfterOrEqualTo(silver.end());
      try (SluiceSession session = SluiceSession.create()) {
        f.check(session);   // every landed row exactly once in bronze and silver, gold's totals exact
      }
      cliShowsTheClusterHistory(f, cluster, victim[0]);
    }
  }
}
