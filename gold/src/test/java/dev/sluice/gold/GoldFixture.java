package dev.sluice.gold;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A warehouse with a silver orders table (change data feed on) and a customers dimension, written
 * directly with the table API, and a gold pipeline over them run with {@code availableNow}.
 */
final class GoldFixture implements AutoCloseable {
  static final StructType ORDERS = new StructType(List.of(
      StructField.of("order_id", PrimitiveType.LONG, false),
      StructField.of("customer_id", PrimitiveType.STRING, true),
      StructField.of("amount", DecimalType.of(10, 2), true),
      StructField.of("status", PrimitiveType.STRING, true),
      StructField.of("event_time", PrimitiveType.TIMESTAMP, true),
      StructField.of("quantity", PrimitiveType.LONG, true)));
  static final StructType CUSTOMERS = new StructType(List.of(
      StructField.of("customer_id", PrimitiveType.STRING, false),
      StructField.of("tier", PrimitiveType.STRING, true)));
  static final List<String> LEDGER = dev.sluice.ingestion.RowLedger.OUTCOMES.stream()
      .map(o -> dev.sluice.ingestion.RowLedger.PREFIX + o).toList();

  final Path warehouse;
  final SluiceSession session = SluiceSession.create();
  final Table silver;
  final Table customers;
  final Table gold;
  final SluiceConfig config;
  final PipelineConfig pipeline;
  final List<QueryProgress> progress = new ArrayList<>();
  private long silverVersionSeen = -1;

  GoldFixture(Path warehouse, String aggregateYaml) {
    this(warehouse, aggregateYaml, "{}");
  }

  /** With silver's change feed read with {@code sourceOptions} (a YAML map). */
  GoldFixture(Path warehouse, String aggregateYaml, String sourceOptions) {
    this.warehouse = warehouse;
    String yaml = """
        warehouse: %s
        pipelines:
          - name: revenue_gold
            layer: gold
            source: {table: silver/orders, options: %s}
            joins: [{table: silver/customers, on: [customer_id], type: left}]
            columns: [{name: tier, expr: "coalesce(tier, 'none')"}]
            filter: "status <> 'cancelled'"
            aggregate:
        %s
            sink: {table: gold/revenue}
        """.formatted(warehouse.toUri(), sourceOptions, aggregateYaml.indent(6).stripTrailing());
    this.config = ConfigLoader.parse(yaml, "test.yaml", Map.of());
    this.pipeline = config.pipeline("revenue_gold").orElseThrow();
    this.silver = session.table(config.tableUri("silver/orders").toString());
    this.customers = session.table(config.tableUri("silver/customers").toString());
    this.gold = session.table(config.tableUri("gold/revenue").toString());
    silver.create(ORDERS).enableChangeDataFeed().commit();
    customers.create(CUSTOMERS).commit();
  }

  static Row order(long id, String customer, String amount, String status, String time) {
    return order(id, customer, amount, status, time, null);
  }

  static Row order(long id, String customer, String amount, String status, String time, Long quantity) {
    return Row.of(id, customer, amount == null ? null : new BigDecimal(amount), status,
        Instant.parse("2026-01-01T" + time + "Z"), quantity);
  }

  void insert(Row... rows) {
    silver.newAppend().rows(List.of(rows)).commit();
  }

  void upsert(Row... rows) {
    silver.newMerge().source(ORDERS, List.of(rows)).on("order_id").whenMatchedUpdate().whenNotMatchedInsert().commit();
  }

  void delete(long orderId) {
    silver.newDelete().where(Predicate.eq("order_id", orderId)).commit();
  }

  void customer(String id, String tier) {
    customers.newMerge().source(CUSTOMERS, List.of(Row.of(id, tier))).on("customer_id").whenMatchedUpdate()
        .whenNotMatchedInsert().commit();
  }

  /** Runs gold until everything available is processed; returns this run's progress. */
  List<QueryProgress> run() {
    StreamingQuery q = GoldPipeline.start(session, config, pipeline, Trigger.availableNow());
    q.awaitTermination();
    List<QueryProgress> runProgress = q.recentProgress();
    progress.addAll(runProgress);
    long latest = silver.latestVersion().orElseThrow();
    if (latest > silverVersionSeen) {
      // The first run reads silver's snapshot as inserts, later runs the change feed of the new versions.
      long changeRows = silverVersionSeen < 0 ? rows(silver).size()
          : silver.changes(silverVersionSeen + 1, latest).rows().toList().size();
      assertThat(runProgress.stream().mapToLong(p -> metric(p.observedMetrics(), "ledger.rowsIn")).sum())
          .as("change rows read in this run").isEqualTo(changeRows);
    }
    silverVersionSeen = latest;
    checkLedger(runProgress);
    return runProgress;
  }

  /** rows in = written + deduplicated + late + quarantined + filtered + dropped, in progress and in gold commits. */
  void checkLedger(List<QueryProgress> runProgress) {
    for (QueryProgress p : runProgress) {
      Map<String, Long> m = p.observedMetrics();
      assertThat(m).as("batch %d", p.batchId()).containsKeys("ledger.rowsIn", "ledger.written", "ledger.filtered");
      assertThat(LEDGER.stream().mapToLong(k -> metric(m, k)).sum()).as("ledger of batch %d: %s", p.batchId(), m)
          .isEqualTo(metric(m, "ledger.rowsIn"));
    }
    long batchesWithInput = runProgress.stream().filter(p -> metric(p.observedMetrics(), "ledger.rowsIn") > 0).count();
    if (batchesWithInput > 0) {
      long commits = gold.history(1000).stream()
          .filter(h -> h.operationMetrics().containsKey("ledger.rowsIn") && Long.parseLong(h.operationMetrics()
              .get("ledger.rowsIn")) > 0).count();
      assertThat(commits).as("gold commits with a ledger").isGreaterThanOrEqualTo(batchesWithInput);
    }
    if (gold.exists()) {
      for (HistoryEntry h : gold.history(1000)) {
        Map<String, String> m = h.operationMetrics();
        if (m.containsKey("ledger.rowsIn")) {
          long sum = LEDGER.stream().mapToLong(k -> Long.parseLong(m.get(k))).sum();
          assertThat(sum).as("ledger of gold version %d: %s", h.version(), m)
              .isEqualTo(Long.parseLong(m.get("ledger.rowsIn")));
        }
      }
    }
  }

  static long metric(Map<String, Long> m, String key) {
    return m.getOrDefault(key, 0L);
  }

  List<Row> rows(Table table) {
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      return it.toList();
    }
  }

  /** Gold as "window_start|window_end|tier" → [measures...], numbers normalised. */
  Map<String, List<Object>> goldResult() {
    return goldResult(List.of("orders", "revenue", "min_amount", "max_amount", "avg_amount"));
  }

  /** Gold as "window_start|window_end|tier" → the values of {@code measureNames}, numbers normalised. */
  Map<String, List<Object>> goldResult(List<String> measureNames) {
    if (!gold.exists()) {
      return Map.of();
    }
    StructType schema = gold.latestSnapshot().schema();
    Map<String, List<Object>> out = new java.util.TreeMap<>();
    for (Row r : rows(gold)) {
      List<Object> measures = new ArrayList<>();
      for (String m : measureNames) {
        measures.add(Oracle.normal(r.get(schema.indexOf(m))));
      }
      String key = r.get(schema.indexOf("window_start")) + "|" + r.get(schema.indexOf("window_end")) + "|"
          + r.get(schema.indexOf("tier"));
      assertThat(out.put(key, measures)).as("one gold row per group %s", key).isNull();
    }
    return out;
  }

  @Override
  public void close() {
    session.close();
  }
}
