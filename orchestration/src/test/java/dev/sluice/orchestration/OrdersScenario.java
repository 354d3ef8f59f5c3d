package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.demo.OrdersGenerator;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The orders scenario end to end: generated landing files through examples/orders/pipelines.yaml. */
final class OrdersScenario {
  final Path dir;
  final String warehouse;
  final OrdersGenerator generator = new OrdersGenerator(20261130L);
  final SluiceConfig config;
  private int files;

  OrdersScenario(Path dir, String warehouse, Map<String, String> extraEnv) {
    this.dir = dir;
    this.warehouse = warehouse;
    generator.writeCustomers(dir.resolve("customers"), 10_000);
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("ORDERS_INPUT", dir.resolve("input").toString());
    env.put("CUSTOMERS_INPUT", dir.resolve("customers").toString());
    env.put("SLUICE_WAREHOUSE", warehouse);
    this.config = ConfigLoader.load(examples().resolve("orders/pipelines.yaml"), env);
  }

  static Path examples() {
    String root = System.getProperty("maven.multiModuleProjectDirectory");
    Path base = root != null ? Path.of(root) : Path.of("..");
    Path p = base.resolve("examples");
    return Files.isDirectory(p) ? p : Path.of("..", "examples");
  }

  /**
   * The example's config with this scenario's paths written in (for a child {@code sluice} process, which reads
   * the environment itself) and {@code header} (e.g. a {@code storage:} block) before it.
   */
  Path writeConfig(String header) {
    try {
      Path file = dir.resolve("pipelines-" + System.nanoTime() + ".yaml");
      Files.writeString(file, header + Files.readString(examples().resolve("orders/pipelines.yaml"))
          .replace("${env:SLUICE_WAREHOUSE:-file:///tmp/sluice-warehouse}", warehouse)
          .replace("${env:ORDERS_INPUT:-examples/orders/data/input}", dir.resolve("input").toString())
          .replace("${env:CUSTOMERS_INPUT:-examples/orders/data/customers}", dir.resolve("customers").toString()));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** For a copy of another scenario's folder: the next landed file follows the {@code count} already there. */
  void landedBefore(int count) {
    files += count;
  }

  void land(int count, int linesPerFile) {
    generator.writeOrders(dir.resolve("input"), files, count, linesPerFile);
    files += count;
  }

  List<PipelineRunner.RunResult> run(SluiceSession session) {
    return PipelineRunner.runAvailableNow(session, config, List.of());
  }

  /** Deletes {@code <table>/_checkpoints/<pipeline>}, the documented way to reprocess (local warehouses only). */
  void resetCheckpoint(String table, String pipeline) {
    Path checkpoint = Path.of(config.tableUri(table)).resolve("_checkpoints").resolve(pipeline);
    assertThat(checkpoint).isDirectory();
    try (java.util.stream.Stream<Path> files = Files.walk(checkpoint)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(checkpoint).doesNotExist();
  }

  OrdersOracle oracle() {
    return new OrdersOracle(dir.resolve("input"), dir.resolve("customers"));
  }

  Table table(SluiceSession session, String relative) {
    return session.table(config.tableUri(relative).toString());
  }

  /** Checks every layer against the oracle and the ledger of every batch. */
  void check(SluiceSession session) {
    OrdersOracle oracle = oracle();
    // bronze: every valid line once, with lineage; quarantine: every broken line
    List<Row> bronze = rows(table(session, "bronze/orders"));
    assertThat(bronze).hasSize(oracle.validLines.size());
    StructType bronzeSchema = table(session, "bronze/orders").latestSnapshot().schema();
    int source = bronzeSchema.indexOf("_source");
    int batch = bronzeSchema.indexOf("_batch_id");
    int ingested = bronzeSchema.indexOf("_ingested_at");
    assertThat(bronze).allSatisfy(r -> {
      assertThat(r.get(source)).isNotNull();
      assertThat(r.get(batch)).isNotNull();
      assertThat(r.get(ingested)).isNotNull();
    });
    Table quarantine = table(session, "bronze/orders_quarantine");
    List<String> raw = new ArrayList<>();
    if (quarantine.exists()) {
      int rawIndex = quarantine.latestSnapshot().schema().indexOf("raw");
      rows(quarantine).forEach(r -> raw.add((String) r.get(rawIndex)));
    }
    assertThat(raw).containsExactlyInAnyOrderElementsOf(oracle.brokenLines);

    // silver: the latest version of each order
    Table silverTable = table(session, "silver/orders");
    StructType s = silverTable.latestSnapshot().schema();
    Map<String, String> silver = new TreeMap<>();
    for (Row r : rows(silverTable)) {
      silver.put((String) r.get(s.indexOf("order_id")), r.get(s.indexOf("status")) + "|" + amount(r.get(s.indexOf("amount")))
          + "|" + r.get(s.indexOf("updated_at")) + "|" + r.get(s.indexOf("event_time")));
    }
    Map<String, String> expectedSilver = new TreeMap<>();
    oracle.silver().forEach((k, o) -> expectedSilver.put(k, o.status() + "|" + amount(o.amount()) + "|" + o.updatedAt() + "|"
        + o.eventTime()));
    assertThat(silver).isEqualTo(expectedSilver);

    // gold: revenue and orders per (window, tier) of silver's current rows
    Table goldTable = table(session, "gold/revenue");
    StructType g = goldTable.latestSnapshot().schema();
    Map<String, String> gold = new TreeMap<>();
    for (Row r : rows(goldTable)) {
      Instant start = (Instant) r.get(g.indexOf("window_start"));
      Object revenue = r.get(g.indexOf("revenue"));
      gold.put(start + "|" + r.get(g.indexOf("tier")), OrdersOracle.cents(((Number) revenue).doubleValue()) + "/"
          + r.get(g.indexOf("orders")));
    }
    assertThat(gold).isEqualTo(oracle.gold());

    // the row ledger balances for every batch of every layer
    for (String t : List.of("bronze/orders", "silver/orders", "gold/revenue")) {
      for (HistoryEntry h : table(session, t).history(10_000)) {
        Map<String, String> m = h.operationMetrics();
        if (!m.containsKey("ledger.rowsIn")) {
          continue;
        }
        long in = Long.parseLong(m.get("ledger.rowsIn"));
        assertThat(RowLedger.outcomes(m)).as("ledger of %s version %d: %s", t, h.version(), m).isEqualTo(in);
        if (t.equals("silver/orders")) {
          // SCD 1: each written row is one row the MERGE inserted, updated or deleted
          long changed = Long.parseLong(m.get("numTargetRowsInserted")) + Long.parseLong(m.get("numTargetRowsUpdated"))
              + Long.parseLong(m.get("numTargetRowsDeleted"));
          assertThat(Long.parseLong(m.get(RowLedger.WRITTEN))).as("silver written, version %d: %s", h.version(), m)
              .isEqualTo(changed);
        }
      }
    }
  }

  /** An amount as a number to the cent, whatever its Java type (double or decimal). */
  static String amount(Object value) {
    return OrdersOracle.cents(((Number) value).doubleValue());
  }

  Map<String, Long> versions(SluiceSession session) {
    Map<String, Long> out = new TreeMap<>();
    for (String t : List.of("bronze/orders", "bronze/orders_quarantine", "silver/orders", "gold/revenue")) {
      Table table = table(session, t);
      out.put(t, table.exists() ? table.latestVersion().getAsLong() : -1);
    }
    return out;
  }

  static List<Row> rows(Table t) {
    try (CloseableIterator<Row> it = t.latestSnapshot().scan().build().rows()) {
      return it.toList();
    }
  }

  static Path tempDir(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
