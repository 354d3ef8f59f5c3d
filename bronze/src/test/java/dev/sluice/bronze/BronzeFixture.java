package dev.sluice.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs a one-pipeline bronze config and reads its tables back, for the tests. */
final class BronzeFixture {
  static final String PIPELINE = "orders_bronze";

  private BronzeFixture() {}

  /** A config with one bronze pipeline writing {@code bronze/orders}; {@code source} is a YAML flow mapping. */
  static SluiceConfig config(String warehouse, String source, String sinkExtra) {
    String yaml = "warehouse: " + warehouse + "\n"
        + "pipelines:\n"
        + "  - name: " + PIPELINE + "\n"
        + "    layer: bronze\n"
        + "    source: " + source + "\n"
        + "    sink: {table: bronze/orders" + sinkExtra + "}\n";
    return ConfigLoader.parse(yaml, "test.yaml", Map.of());
  }

  static StreamingQuery run(SluiceSession session, SluiceConfig config) {
    StreamingQuery q = BronzePipeline.start(session, config, config.pipeline(PIPELINE).orElseThrow(),
        Trigger.availableNow());
    q.awaitTermination();
    return q;
  }

  /** Rows of a table as column name -> value maps, in scan order. */
  static List<Map<String, Object>> rows(Table table) {
    StructType schema = table.latestSnapshot().schema();
    List<Map<String, Object>> out = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      while (it.hasNext()) {
        Row r = it.next();
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < schema.size(); i++) {
          m.put(schema.field(i).name(), r.get(i));
        }
        out.add(m);
      }
    }
    return out;
  }

  /** The bronze commits (one per batch), oldest first. */
  static List<HistoryEntry> batchCommits(Table table) {
    List<HistoryEntry> out = new ArrayList<>(table.history(1000).stream()
        .filter(h -> h.operation().equals("STREAMING UPDATE")).toList());
    out.sort(java.util.Comparator.comparingLong(HistoryEntry::version));
    return out;
  }

  /**
   * Checks the ledger equation on every bronze commit, that "written" is what the commit appended, that
   * "quarantined" is what the quarantine table holds for that batch, and the same counters in progress.
   */
  static void assertLedgerBalances(Table bronze, Table quarantine, List<QueryProgress> progress) {
    List<HistoryEntry> commits = batchCommits(bronze);
    assertThat(commits).isNotEmpty();
    List<Map<String, Object>> quarantined = quarantine.exists() ? rows(quarantine) : List.of();
    for (HistoryEntry h : commits) {
      Map<String, String> m = h.operationMetrics();
      long batchId = Long.parseLong(m.get("batchId"));
      long in = Long.parseLong(m.get("ledger.rowsIn"));
      long sum = 0;
      for (String term : dev.sluice.ingestion.RowLedger.OUTCOMES) {
        sum += Long.parseLong(m.get("ledger." + term));
      }
      assertThat(sum).as("ledger of batch %d", batchId).isEqualTo(in);
      assertThat(m.get("ledger.written")).isEqualTo(m.get("numOutputRows"));
      assertThat(quarantined.stream().filter(r -> r.get("batch_id").equals(batchId)).count())
          .isEqualTo(Long.parseLong(m.get("ledger.quarantined")));
    }
    for (QueryProgress p : progress) {
      Map<String, Long> o = p.observedMetrics();
      assertThat(o.get("ledger.rowsIn")).isEqualTo(o.get("ledger.written") + o.get("ledger.quarantined")
          + o.get("ledger.deduplicated") + o.get("ledger.late") + o.get("ledger.filtered") + o.get("ledger.dropped"));
      HistoryEntry commit = commits.stream().filter(h -> h.operationMetrics().get("batchId")
          .equals(Long.toString(p.batchId()))).findFirst().orElseThrow();
      assertThat(Long.toString(o.get("ledger.written"))).isEqualTo(commit.operationMetrics().get("ledger.written"));
    }
  }
}
