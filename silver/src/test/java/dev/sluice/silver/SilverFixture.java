package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
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
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A warehouse with a bronze orders table written directly, and a silver pipeline over it from YAML. */
final class SilverFixture {
  static final StructType BRONZE = StructType.empty()
      .add("order_id", PrimitiveType.STRING)
      .add("amount", PrimitiveType.STRING)
      .add("status", PrimitiveType.STRING)
      .add("updated_at", PrimitiveType.TIMESTAMP)
      .add("event_time", PrimitiveType.TIMESTAMP)
      .add("_batch_id", PrimitiveType.LONG);
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  final Path warehouse;
  final SluiceSession session;
  final List<StreamingQuery> runs = new ArrayList<>();
  private final String transforms;
  private final String merge;
  String sourceOptions = "";

  /**
   * @param transforms YAML lines of the pipeline (columns, filter, expectations, dedup), indented by 4
   * @param merge the flow mapping of sink.merge, e.g. {@code {keys: [order_id], sequence_by: updated_at}}
   */
  SilverFixture(Path warehouse, SluiceSession session, String transforms, String merge) {
    this.warehouse = warehouse;
    this.session = session;
    this.transforms = transforms;
    this.merge = merge;
  }

  SluiceConfig config() {
    String yaml = "warehouse: " + warehouse.toUri() + "\n"
        + "pipelines:\n"
        + "  - name: orders_silver\n"
        + "    layer: silver\n"
        + "    source: {table: bronze/orders" + sourceOptions + "}\n"
        + transforms
        + "    sink: {table: silver/orders, merge: " + merge + "}\n";
    return ConfigLoader.parse(yaml, "test.yaml", Map.of());
  }

  /** An order row of the bronze table; minutes are after {@link #T0}. */
  static Row order(String id, String amount, String status, int updatedMinute, int eventMinute) {
    return Row.of(id, amount, status, T0.plusSeconds(60L * updatedMinute), T0.plusSeconds(60L * eventMinute), 7L);
  }

  /** Appends rows to bronze as one commit (creating the table first). */
  void bronze(Row... rows) {
    Table t = bronzeTable();
    if (!t.exists()) {
      t.create(BRONZE).commit();
    }
    t.newAppend().schema(BRONZE).rows(Arrays.asList(rows)).commit();
  }

  Table bronzeTable() {
    return session.table(warehouse.resolve("bronze/orders").toString());
  }

  Table silver() {
    return session.table(warehouse.resolve("silver/orders").toString());
  }

  Table quarantine() {
    return session.table(warehouse.resolve("silver/orders_quarantine").toString());
  }

  /** Runs the pipeline until everything available is processed. */
  StreamingQuery run() {
    SluiceConfig config = config();
    StreamingQuery q = SilverPipeline.start(session, config, config.pipeline("orders_silver").orElseThrow(),
        Trigger.availableNow());
    runs.add(q);
    q.awaitTermination();
    return q;
  }

  /** Every progress of every run so far. */
  List<QueryProgress> progress() {
    List<QueryProgress> out = new ArrayList<>();
    runs.forEach(q -> out.addAll(q.recentProgress()));
    return out;
  }

  /** Rows as column → value maps, sorted by their text. */
  static List<Map<String, Object>> rows(Table table) {
    StructType schema = table.latestSnapshot().schema();
    List<Map<String, Object>> out = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      it.forEachRemaining(r -> out.add(asMap(schema, r)));
    }
    out.sort(Comparator.comparing(Object::toString));
    return out;
  }

  static Map<String, Object> asMap(StructType schema, Row r) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < schema.size(); i++) {
      m.put(schema.field(i).name(), r.get(i));
    }
    return m;
  }

  /** The silver commits written by the pipeline (not the CREATE TABLE), oldest first. */
  List<HistoryEntry> mergeCommits() {
    List<HistoryEntry> out = new ArrayList<>(silver().history(1000));
    out.removeIf(h -> !"STREAMING MERGE".equals(h.operation()));
    out.sort(Comparator.comparingLong(HistoryEntry::version));
    return out;
  }

  static Instant at(int minute) {
    return T0.plusSeconds(60L * minute);
  }

  /** Checks the ledger equation on one set of counters. */
  static void assertBalanced(Map<String, Long> m) {
    assertThat(m).as("every ledger term").containsKeys(RowLedger.KEYS.toArray(String[]::new));
    assertThat(RowLedger.outcomes(m)).as("ledger of %s", m).isEqualTo(m.get(RowLedger.ROWS_IN));
  }

  static Map<String, Long> longs(Map<String, String> metrics) {
    Map<String, Long> out = new LinkedHashMap<>();
    metrics.forEach((k, v) -> {
      if (k.startsWith("ledger.") || k.startsWith("expectation.")) {
        out.put(k, Long.parseLong(v));
      }
    });
    return out;
  }
}
