package dev.sluice.gold;

import static dev.sluice.gold.GoldFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoldPipelineTest {
  private static final String UPDATE = """
      group_by: [tier]
      window: {column: event_time, size: 1 minute}
      measures: ["count(*) AS orders", "sum(amount) AS revenue", "min(amount) AS min_amount",
                 "max(amount) AS max_amount", "avg(amount) AS avg_amount"]
      """;

  @TempDir
  Path dir;

  private static void assertGoldExact(GoldFixture f, Duration size, Duration slide) {
    assertThat(f.goldResult()).isEqualTo(Oracle.compute(f.rows(f.silver), f.rows(f.customers), size, slide));
  }

  private static void assertGoldExact(GoldFixture f) {
    assertGoldExact(f, Duration.ofMinutes(1), Duration.ofMinutes(1));
  }

  @Test
  void updateModeRetractsUpdatesAndDeletesExactlyIncludingMinAndMax() {
    try (GoldFixture f = new GoldFixture(dir, UPDATE)) {
      f.customer("c1", "gold");
      f.customer("c2", "silver");
      f.run();
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05"), order(2, "c1", "20.00", "paid", "10:00:30"),
          order(3, "c2", "5.00", "paid", "10:01:10"), order(4, "c3", "7.00", "paid", "10:00:40"),
          order(5, "c1", "100.00", "cancelled", "10:00:50"));
      List<QueryProgress> first = f.run();
      assertGoldExact(f);
      Map<String, Long> m = first.get(first.size() - 1).observedMetrics();
      assertThat(m).containsEntry("ledger.rowsIn", 5L).containsEntry("ledger.written", 4L)
          .containsEntry("ledger.filtered", 1L);
      assertThat(f.goldResult()).containsEntry("2026-01-01T10:00:00Z|2026-01-01T10:01:00Z|gold",
          List.of(2L, Oracle.normal(new BigDecimal("30.00")), Oracle.normal(new BigDecimal("10.00")),
              Oracle.normal(new BigDecimal("20.00")), Oracle.normal(new BigDecimal("15.000000"))));

      f.upsert(order(2, "c1", "25.00", "paid", "10:01:20")); // moves to the next window: retracts the max
      f.run();
      assertGoldExact(f);

      f.upsert(order(1, "c2", "10.00", "paid", "10:00:05")); // moves from gold to silver tier
      f.run();
      assertGoldExact(f);
      assertThat(f.goldResult()).doesNotContainKey("2026-01-01T10:00:00Z|2026-01-01T10:01:00Z|gold");

      f.delete(3); // the min of its group
      f.run();
      assertGoldExact(f);

      f.upsert(order(5, "c1", "1.00", "paid", "10:01:40")); // passes the filter now, the new min
      f.insert(order(6, "c1", "50.00", "paid", "10:01:45"));
      f.run();
      assertGoldExact(f);

      f.upsert(order(6, "c1", "30.00", "paid", "10:01:45"), order(5, "c1", "2.00", "paid", "10:01:40"));
      f.run();
      assertGoldExact(f);
    }
  }

  @Test
  void rerunWithoutNewInputCommitsNothing() {
    try (GoldFixture f = new GoldFixture(dir, UPDATE)) {
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05"));
      f.run();
      long version = f.gold.latestVersion().orElseThrow();
      assertThat(f.run()).isEmpty();
      assertThat(f.gold.latestVersion().orElseThrow()).isEqualTo(version);
      assertGoldExact(f);
    }
  }

  @Test
  void dimensionChangeBetweenBatchesRecomputesEveryGroup() {
    try (GoldFixture f = new GoldFixture(dir, UPDATE)) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05"), order(2, "c1", "20.00", "paid", "10:03:00"));
      f.run();
      assertGoldExact(f);

      f.customer("c1", "silver");
      f.insert(order(3, "c1", "30.00", "paid", "10:05:00"));
      List<QueryProgress> p = f.run();
      assertGoldExact(f);
      assertThat(p.get(p.size() - 1).observedMetrics()).containsEntry("gold.fullRecompute", 1L);
      assertThat(f.goldResult().keySet()).allMatch(k -> k.endsWith("|silver"));

      f.insert(order(4, "c1", "40.00", "paid", "10:06:00"));
      p = f.run();
      assertGoldExact(f);
      assertThat(p.get(p.size() - 1).observedMetrics()).containsEntry("gold.fullRecompute", 0L);
    }
  }

  @Test
  void slidingWindowsInUpdateMode() {
    String sliding = UPDATE.replace("size: 1 minute", "size: 2 minutes, slide: 1 minute");
    try (GoldFixture f = new GoldFixture(dir, sliding)) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05"), order(2, "c1", "20.00", "paid", "10:01:30"));
      f.run();
      assertGoldExact(f, Duration.ofMinutes(2), Duration.ofMinutes(1));
      f.upsert(order(2, "c1", "5.00", "paid", "10:03:30"));
      f.delete(1);
      f.run();
      assertGoldExact(f, Duration.ofMinutes(2), Duration.ofMinutes(1));
    }
  }

  @Test
  void completeModeOverwritesWithTheWholeResult() {
    try (GoldFixture f = new GoldFixture(dir, UPDATE + "output_mode: complete\n")) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:05"), order(2, "c2", "20.00", "paid", "10:00:30"));
      f.run();
      assertGoldExact(f);
      f.upsert(order(1, "c1", "12.00", "paid", "10:02:05"));
      f.delete(2);
      f.run();
      assertGoldExact(f);
      assertThat(f.gold.history(1).get(0).operation()).isEqualTo("STREAMING COMPLETE");
    }
  }
}
