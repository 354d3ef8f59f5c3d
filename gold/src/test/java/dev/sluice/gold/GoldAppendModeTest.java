package dev.sluice.gold;

import static dev.sluice.gold.GoldFixture.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoldAppendModeTest {
  private static final String APPEND = """
      group_by: [tier]
      window: {column: event_time, size: 1 minute}
      measures: ["count(*) AS orders", "sum(amount) AS revenue", "min(amount) AS min_amount",
                 "max(amount) AS max_amount", "avg(amount) AS avg_amount"]
      output_mode: append
      watermark: {column: event_time, delay: 1 minute}
      """;

  @TempDir
  Path dir;

  @Test
  void finalisedWindowsOnlyAndLateRowsAndChangesGoToTheLateTable() {
    try (GoldFixture f = new GoldFixture(dir, APPEND)) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:10"), order(2, "c1", "20.00", "paid", "10:00:20"),
          order(9, "c1", "90.00", "cancelled", "10:00:30"));
      f.run();
      assertThat(f.gold.exists() ? f.rows(f.gold) : List.of()).as("no window is final yet").isEmpty();

      f.insert(order(3, "c1", "30.00", "paid", "10:05:00"));
      f.run();
      Map<String, List<Object>> gold = f.goldResult();
      assertThat(gold).containsOnlyKeys("2026-01-01T10:00:00Z|2026-01-01T10:01:00Z|gold");
      assertThat(gold.get("2026-01-01T10:00:00Z|2026-01-01T10:01:00Z|gold")).containsExactly(2L,
          Oracle.normal(new BigDecimal("30")), Oracle.normal(new BigDecimal("10")), Oracle.normal(new BigDecimal("20")),
          Oracle.normal(new BigDecimal("15")));

      f.insert(order(4, "c1", "40.00", "paid", "10:00:30"));
      f.upsert(order(1, "c1", "11.00", "paid", "10:00:10"));
      List<QueryProgress> p = f.run();
      long late = p.stream().mapToLong(q -> GoldFixture.metric(q.observedMetrics(), "ledger.late")).sum();
      long written = p.stream().mapToLong(q -> GoldFixture.metric(q.observedMetrics(), "ledger.written")).sum();
      assertThat(late).isEqualTo(3);
      assertThat(written).isZero();
      assertThat(f.goldResult()).isEqualTo(gold);

      Table lateTable = f.session.table(f.config.tableUri("gold/revenue_late").toString());
      StructType schema = lateTable.latestSnapshot().schema();
      List<String> late_rows = f.rows(lateTable).stream()
          .map(r -> r.get(schema.indexOf("order_id")) + ":" + r.get(schema.indexOf("_change_type")) + ":"
              + r.get(schema.indexOf("_late_operator")))
          .sorted().toList();
      assertThat(late_rows).hasSize(3);
      assertThat(late_rows.get(0)).startsWith("1:update_postimage:gold append: update_postimage not applied");
      assertThat(late_rows.get(1)).startsWith("1:update_preimage:gold append: update_preimage not applied");
      assertThat(late_rows.get(2)).startsWith("4:insert:");
      long version = f.gold.latestVersion().orElseThrow();
      assertThat(f.run()).isEmpty();
      assertThat(f.gold.latestVersion().orElseThrow()).isEqualTo(version);
    }
  }

  @Test
  void anEventTimeBeyondMaxFutureSkewGoesToTheLateTableAndDoesNotFinaliseWindows() {
    try (GoldFixture f = new GoldFixture(dir, APPEND)) {
      f.customer("c1", "gold");
      Row wild = Row.of(7L, "c1", new BigDecimal("70.00"), "paid", java.time.Instant.ofEpochSecond(1704101640000L), null);
      f.insert(order(1, "c1", "10.00", "paid", "10:00:10"), wild);
      assertThat(f.run().get(0).observedMetrics()).containsEntry("ledger.late", 1L).containsEntry("ledger.written", 1L);
      f.insert(order(3, "c1", "30.00", "paid", "10:05:00"));
      List<QueryProgress> p = f.run();
      f.insert(order(4, "c1", "40.00", "paid", "10:10:00"));
      p = new java.util.ArrayList<>(p);
      p.addAll(f.run());

      // the wild time moved nothing: order 3 is not late, and its window is final once 10:10 arrives
      assertThat(p.stream().mapToLong(q -> GoldFixture.metric(q.observedMetrics(), "ledger.late")).sum()).isZero();
      assertThat(f.goldResult()).containsOnlyKeys("2026-01-01T10:00:00Z|2026-01-01T10:01:00Z|gold",
          "2026-01-01T10:05:00Z|2026-01-01T10:06:00Z|gold");
      Table lateTable = f.session.table(f.config.tableUri("gold/revenue_late").toString());
      StructType schema = lateTable.latestSnapshot().schema();
      assertThat(f.rows(lateTable)).singleElement().satisfies(r -> {
        assertThat(r.get(schema.indexOf("order_id"))).isEqualTo(7L);
        assertThat(r.get(schema.indexOf("_late_operator")))
            .isEqualTo("gold append: event time beyond max_future_skew 1 day");
      });
    }
  }

  @Test
  void aNewCheckpointOverExistingWindowsIsRefusedNotAppendedTwice() throws java.io.IOException {
    try (GoldFixture f = new GoldFixture(dir, APPEND)) {
      f.customer("c1", "gold");
      f.insert(order(1, "c1", "10.00", "paid", "10:00:10"));
      f.run();
      f.insert(order(3, "c1", "30.00", "paid", "10:05:00"));
      f.run();
      List<Row> before = f.rows(f.gold);
      assertThat(before).as("one finalised window").hasSize(1);
      Path checkpoint = dir.resolve("gold/revenue/_checkpoints/revenue_gold");
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(checkpoint)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }

      assertThatThrownBy(f::run).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Pipeline 'revenue_gold' (append mode) has a new checkpoint")
          .hasMessageContaining("already holds windows")
          .hasMessageContaining("delete the gold table folder");
      assertThat(f.rows(f.gold)).isEqualTo(before);
    }
  }

  @Test
  void ledgerOfTheFirstBatchCountsTheFilteredRow() {
    try (GoldFixture f = new GoldFixture(dir, APPEND)) {
      f.insert(order(1, "c1", "10.00", "paid", "10:00:10"), order(9, "c1", "90.00", "cancelled", "10:00:30"));
      List<QueryProgress> p = f.run();
      Map<String, Long> m = p.get(0).observedMetrics();
      assertThat(m).containsEntry("ledger.rowsIn", 2L).containsEntry("ledger.written", 1L)
          .containsEntry("ledger.filtered", 1L).containsEntry("ledger.late", 0L);
      assertThat(f.gold.history(10).stream().filter(h -> h.operationMetrics().containsKey("ledger.rowsIn")))
          .anySatisfy(h -> assertThat(h.operationMetrics()).containsEntry("ledger.written", "1"));
    }
  }
}
