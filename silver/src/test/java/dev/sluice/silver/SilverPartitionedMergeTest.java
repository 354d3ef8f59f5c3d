package dev.sluice.silver;

import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A silver SCD1 MERGE whose batch is split into key-hash partitions (and spills past a tiny memory budget) decides
 * exactly as the same batch in one partition: the same table, the same ledger, the same MERGE metrics.
 */
class SilverPartitionedMergeTest {
  private static final String SCD1 = "{keys: [order_id], sequence_by: updated_at, delete_when: \"status = 'deleted'\"}";

  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.create();

  @AfterEach
  void close() {
    session.close();
    System.clearProperty(KeyPartitions.PARTITION_ROWS_PROPERTY);
    System.clearProperty("sluice.batch.memoryBytes");
  }

  @Test
  void aBatchSplitIntoPartitionsMergesAsOneDoes() {
    SilverFixture whole = scenario(dir.resolve("whole"));
    System.setProperty(KeyPartitions.PARTITION_ROWS_PROPERTY, "40");
    System.setProperty("sluice.batch.memoryBytes", "4096");
    SilverFixture split = scenario(dir.resolve("split"));

    List<Map<String, Object>> rows = SilverFixture.rows(split.silver());
    assertThat(rows).isEqualTo(SilverFixture.rows(whole.silver()));
    // 300 first orders, 10 of them deleted, plus 150 new ones; o-7 stays deleted although an older version came later.
    assertThat(rows).hasSize(300 - 10 + 150);
    assertThat(rows).noneMatch(m -> m.get("order_id").equals("o-7"));
    assertThat(rows).filteredOn(m -> m.get("order_id").equals("o-1")).singleElement()
        .satisfies(m -> assertThat(m.get("status")).isEqualTo("paid"));
    assertThat(ledgers(split)).isEqualTo(ledgers(whole));
    // 99 updates + 10 deletes + 150 inserts; 101 losers within the batch + 50 older than the table; 30 repeats.
    assertThat(ledgers(split).get(1)).containsEntry(RowLedger.WRITTEN, 259L).containsEntry(RowLedger.SUPERSEDED, 151L)
        .containsEntry(RowLedger.UNCHANGED, 30L);
    assertThat(split.mergeCommits()).extracting(h -> SilverFixture.longs(h.operationMetrics()))
        .isEqualTo(whole.mergeCommits().stream().map(h -> SilverFixture.longs(h.operationMetrics())).toList());
  }

  /** Three batches: 300 new orders; updates, older versions, repeats, deletes and new orders; an older update of a deleted order. */
  private SilverFixture scenario(Path warehouse) {
    SilverFixture f = new SilverFixture(warehouse, session, "", SCD1);
    f.bronze(batch(rows -> {
      for (int i = 0; i < 300; i++) {
        rows.add(order("o-" + i, "10", "new", 10, 0));
      }
    }));
    f.run();
    f.bronze(batch(rows -> {
      for (int i = 0; i < 100; i++) {
        rows.add(order("o-" + i, "12", "shipped", 20, 0)); // updates ...
        rows.add(order("o-" + i, "11", i == 1 ? "paid" : "shipped", i == 1 ? 30 : 15, 0)); // ... o-1 twice
      }
      for (int i = 100; i < 150; i++) {
        rows.add(order("o-" + i, "9", "old", 5, 0)); // older than the table's version
      }
      for (int i = 150; i < 180; i++) {
        rows.add(order("o-" + i, "10", "new", 10, 0)); // the table's row exactly
      }
      rows.add(order("o-7", "10", "deleted", 40, 0)); // beats its two updates in this batch
      for (int i = 200; i < 209; i++) {
        rows.add(order("o-" + i, "10", "deleted", 40, 0));
      }
      for (int i = 300; i < 450; i++) {
        rows.add(order("o-" + i, "5", "new", 10, 0));
      }
    }));
    f.run();
    f.bronze(order("o-7", "1", "paid", 35, 0));
    f.run();
    return f;
  }

  private static Row[] batch(Consumer<List<Row>> fill) {
    List<Row> rows = new ArrayList<>();
    fill.accept(rows);
    return rows.toArray(Row[]::new);
  }

  private static List<Map<String, Long>> ledgers(SilverFixture f) {
    List<Map<String, Long>> out = new ArrayList<>();
    for (QueryProgress p : f.progress()) {
      if (p.numInputRows() > 0) {
        Map<String, Long> m = new java.util.TreeMap<>(p.observedMetrics());
        m.keySet().removeIf(k -> !k.startsWith("ledger.") && !k.startsWith("rows"));
        out.add(m);
      }
    }
    return out;
  }
}
