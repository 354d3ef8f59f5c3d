package dev.sluice.gold;

import static dev.sluice.gold.GoldFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.data.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Update mode with only count, sum and avg follows the change feed with group totals in state: gold must
 * equal the batch computation after every run, through restarts, crashes, dimension changes and a
 * checkpoint without state.
 */
class GoldStateTest {
  private static final String AGGREGATE = """
      group_by: [tier]
      window: {column: event_time, size: 2 minutes, slide: 1 minute}
      measures: ["count(*) AS orders", "count(amount) AS priced", "sum(amount) AS revenue",
                 "avg(amount) AS avg_amount", "count(quantity) AS counted", "sum(quantity) AS units",
                 "avg(quantity) AS avg_units"]
      """;
  private static final List<String> MEASURES = List.of("orders", "priced", "revenue", "avg_amount", "counted",
      "units", "avg_units");
  private static final String ONE_COMMIT_PER_BATCH = "{maxFilesPerTrigger: 1}";

  @TempDir
  Path dir;

  @AfterEach
  void removeInterceptors() {
    BatchInterceptor.REGISTRY.clear();
  }

  private static void assertGoldExact(GoldFixture f) {
    assertThat(f.goldResult(MEASURES)).isEqualTo(Oracle.computeInvertible(f.rows(f.silver), f.rows(f.customers),
        Duration.ofMinutes(2), Duration.ofMinutes(1)));
  }

  private static QueryProgress last(List<QueryProgress> progress) {
    return progress.get(progress.size() - 1);
  }

  @ParameterizedTest
  @ValueSource(longs = {42, 7, 2026, 99})
  void goldEqualsTheBatchComputationThroughRestartsAndCrashes(long seed) {
    Random random = new Random(seed);
    try (GoldFixture f = new GoldFixture(dir.resolve("seed-" + seed), AGGREGATE, ONE_COMMIT_PER_BATCH)) {
      List<Long> live = new ArrayList<>();
      long nextId = 1;
      long incremental = 0;
      for (int run = 0; run < 14; run++) {
        for (int ops = 1 + random.nextInt(4); ops > 0; ops--) {
          int kind = random.nextInt(12);
          if (kind < 4 || live.isEmpty()) {
            List<Row> rows = new ArrayList<>();
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
              rows.add(randomOrder(random, nextId));
              live.add(nextId++);
            }
            f.insert(rows.toArray(Row[]::new));
          } else if (kind < 8) {
            f.upsert(randomOrder(random, live.get(random.nextInt(live.size())))); // may move to other groups
          } else if (kind < 11) {
            f.delete(live.remove(random.nextInt(live.size()))); // may empty its groups
          } else {
            f.customer("c" + random.nextInt(3), List.of("gold", "silver", "bronze").get(random.nextInt(3)));
            if (ops == 1) { // gold sees a dimension change with the next change rows only
              f.insert(randomOrder(random, nextId));
              live.add(nextId++);
            }
          }
        }
        int crash = random.nextInt(4);
        if (crash < 2) {
          BatchInterceptor.Step step = crash == 0 ? BatchInterceptor.Step.BEFORE_SINK : BatchInterceptor.Step.AFTER_SINK;
          AtomicBoolean crashed = new AtomicBoolean();
          BatchInterceptor.REGISTRY.put("revenue_gold", (at, batchId) -> {
            if (at == step && crashed.compareAndSet(false, true)) {
              throw new IllegalStateException("injected crash at " + step);
            }
          });
          try {
            f.run(); // runs nothing when the ops changed only customers
          } catch (RuntimeException e) {
            assertThat(e).as("run %d", run).hasStackTraceContaining("injected crash");
          }
          BatchInterceptor.REGISTRY.clear();
        }
        List<QueryProgress> progress = f.run();
        incremental += progress.stream().filter(p -> p.observedMetrics().getOrDefault("gold.incremental", 0L) == 1)
            .peek(p -> assertThat(p.observedMetrics()).doesNotContainKey("gold.snapshotRows")).count();
        assertGoldExact(f);
      }
      assertThat(incremental).as("batches that followed the change feed").isGreaterThan(5);
    }
  }

  @Test
  void aCheckpointWithoutStateRecomputesOnceThenFollowsTheFeed() throws IOException {
    try (GoldFixture f = new GoldFixture(dir, AGGREGATE)) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05", 3L), order(2, "c1", "20.00", "paid", "10:00:30", null));
      f.run();
      f.insert(order(3, "c1", "5.00", "paid", "10:01:10", 1L));
      assertThat(last(f.run()).observedMetrics()).containsEntry("gold.incremental", 1L);
      assertGoldExact(f);

      // As a checkpoint written before gold kept state: batches done, no state.
      deleteTree(f.warehouse.resolve("gold/revenue/_checkpoints/revenue_gold/state"));
      f.upsert(order(1, "c1", "12.50", "paid", "10:03:05", 4L));
      f.delete(2);
      List<QueryProgress> seeding = f.run();
      assertThat(last(seeding).observedMetrics()).containsEntry("gold.incremental", 0L)
          .containsEntry("gold.fullRecompute", 1L).containsEntry("gold.snapshotRows", 2L);
      assertGoldExact(f);

      f.delete(3);
      f.insert(order(4, "c1", null, "paid", "10:01:50", null));
      assertThat(last(f.run()).observedMetrics()).containsEntry("gold.incremental", 1L)
          .doesNotContainKey("gold.snapshotRows");
      assertGoldExact(f);
      assertThat(Files.list(f.warehouse.resolve("gold/revenue/_checkpoints/revenue_gold/state/gold")))
          .as("the state started again at the seeding batch; older bases are gone").hasSize(1);
    }
  }

  @Test
  void updatesThatEmptyGroupsDeleteTheirGoldRows() {
    try (GoldFixture f = new GoldFixture(dir, AGGREGATE)) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05", 2L));
      f.run();
      assertThat(f.goldResult(MEASURES)).hasSize(2);
      f.upsert(order(1, "c1", "10.00", "paid", "10:05:05", 2L)); // both windows lose their only row
      f.run();
      assertGoldExact(f);
      assertThat(f.goldResult(MEASURES).keySet()).allMatch(k -> k.startsWith("2026-01-01T10:04") || k.startsWith(
          "2026-01-01T10:05"));
      f.delete(1);
      f.run();
      assertThat(f.goldResult(MEASURES)).isEmpty();
    }
  }

  @Test
  void minAndMaxKeepRecomputingTouchedGroups() {
    String withMax = AGGREGATE.replace("\"avg(quantity) AS avg_units\"", "\"max(quantity) AS most\"");
    try (GoldFixture f = new GoldFixture(dir, withMax)) {
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05", 2L));
      f.run();
      f.insert(order(2, "c1", "10.00", "paid", "10:00:06", 5L));
      assertThat(last(f.run()).observedMetrics()).containsEntry("gold.incremental", 0L)
          .containsKey("gold.snapshotRows");
      assertThat(f.gold.latestSnapshot().schema().fieldNames()).contains("most");
    }
  }

  private static Row randomOrder(Random random, long id) {
    String time = "10:%02d:%02d".formatted(random.nextInt(8), random.nextInt(60));
    String amount = random.nextInt(5) == 0 ? null : (1 + random.nextInt(500)) + "." + "%02d".formatted(random.nextInt(100));
    String status = random.nextInt(6) == 0 ? "cancelled" : "paid";
    Long quantity = random.nextInt(4) == 0 ? null : (long) random.nextInt(1000) - 100;
    return order(id, "c" + random.nextInt(4), amount, status, time, quantity);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
