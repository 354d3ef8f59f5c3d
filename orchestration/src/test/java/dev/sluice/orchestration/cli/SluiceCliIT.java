package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.orchestration.demo.OrdersGenerator;
import dev.sluice.table.DataFile;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@code sluice} command end to end in child processes: the orders example run with availableNow on
 * generated data, then every inspection command on what it wrote, validation, the demo, and exit codes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SluiceCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FILES = 3;
  private static final int LINES = 500;

  private Path dir;
  private Path config;
  private Map<String, String> env;
  private SluiceProcess.Result firstRun;

  @BeforeAll
  void runTheOrdersExample() throws IOException {
    dir = Files.createTempDirectory("sluice-cli");
    OrdersGenerator generator = new OrdersGenerator(11);
    generator.writeOrders(dir.resolve("input"), 0, FILES, LINES);
    generator.writeCustomers(dir.resolve("customers"), 10_000);
    config = examples().resolve("orders/pipelines.yaml").toAbsolutePath();
    env = Map.of("ORDERS_INPUT", dir.resolve("input").toString(), "CUSTOMERS_INPUT", dir.resolve("customers").toString(),
        "SLUICE_WAREHOUSE", dir.resolve("warehouse").toUri().toString());
    firstRun = sluice("run", config.toString(), "--available-now");
  }

  @Test
  void runAvailableNowRunsTheThreeLayersAndExitsZero() {
    assertThat(firstRun.exitCode()).as(firstRun.toString()).isZero();
    assertThat(firstRun.out()).contains("ok      orders_bronze", "ok      orders_silver", "ok      revenue_gold")
        .contains(FILES + " files to process").contains(Values.count((long) FILES * LINES) + " rows in");
    assertThat(firstRun.err()).doesNotContain("Exception").doesNotContain(" INFO ");
    // a second run finds nothing new: every pipeline succeeds with no input rows
    SluiceProcess.Result again = sluice("run", config.toString(), "--available-now", "--wait", "--pipeline", "orders_bronze");
    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(again.out()).contains("ok      orders_bronze").doesNotContain("orders_silver");
  }

  @Test
  void verboseLogsTheEngineToStandardErrorInTheCliPattern() {
    Map<String, String> fresh = new java.util.HashMap<>(env);
    fresh.put("SLUICE_WAREHOUSE", dir.resolve("verbose-warehouse").toUri().toString());
    SluiceProcess.Result r = SluiceProcess.run(dir, fresh, "-v", "run", config.toString(), "--available-now",
        "--pipeline", "orders_bronze");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.err().lines().filter(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  d\\.s\\..* - .+")))
        .as(r.toString()).isNotEmpty();
    assertThat(r.out()).doesNotContain(" INFO ");
  }

  @Test
  void statusJsonHasEachPipelinesLastBatchTableVersionAndBalancedLedger() throws IOException {
    SluiceProcess.Result r = sluice("status", config.toString(), "--json");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    JsonNode status = JSON.readTree(r.out());
    assertThat(status).hasSize(3);
    List<String> names = new ArrayList<>();
    for (JsonNode p : status) {
      names.add(p.path("pipeline").asText());
      assertThat(p.path("lastBatch").asLong(-1)).as(p.toString()).isGreaterThanOrEqualTo(0);
      assertThat(p.path("lastBatchTime").asText()).isNotEmpty();
      assertThat(p.path("tableVersion").asLong(-1)).isGreaterThanOrEqualTo(1);
      assertThat(p.path("uncommittedBatch").isNull()).isTrue();
      JsonNode ledger = p.path("ledger");
      long out = 0;
      for (String k : Ledger.OUTCOMES) {
        out += ledger.path(k).asLong();
      }
      assertThat(out).as("ledger of %s", p).isEqualTo(ledger.path("rowsIn").asLong()).isPositive();
    }
    assertThat(names).containsExactly("orders_bronze", "orders_silver", "revenue_gold");
    assertThat(status.get(0).path("ledger").path("rowsIn").asLong()).isEqualTo((long) FILES * LINES);
    assertThat(status.get(1).path("state").path("operators").asInt()).isEqualTo(1);
    assertThat(status.get(1).path("state").path("rows").path("dedupeWithinWatermark").asLong()).isPositive();
    assertThat(status.get(1).path("watermark").asText()).startsWith("20");

    SluiceProcess.Result table = sluice("status", config.toString());
    assertThat(table.exitCode()).isZero();
    assertThat(table.outLines().get(0)).contains("pipeline", "batch", "watermark", "version", "ledger");
    assertThat(table.out()).contains("orders_silver", "deduplicated");
  }

  @Test
  void readPrintsEachFormatWithFilterColumnsLimitAndTimeTravel() throws IOException {
    SluiceProcess.Result json = sluice("read", "gold/revenue", "--config", config.toString(), "--where",
        "tier = 'premium' AND orders > 1", "--format", "json", "--limit", "0");
    assertThat(json.exitCode()).as(json.toString()).isZero();
    assertThat(json.outLines()).isNotEmpty();
    for (String line : json.outLines()) {
      JsonNode row = JSON.readTree(line);
      assertThat(row.path("tier").asText()).isEqualTo("premium");
      assertThat(row.path("orders").asLong()).isGreaterThan(1);
      assertThat(row.path("window_start").asText()).endsWith("Z");
    }

    SluiceProcess.Result csv = sluice("read", "silver/orders", "-c", config.toString(), "--columns",
        "order_id,status,amount", "--limit", "5", "--format", "csv");
    assertThat(csv.exitCode()).as(csv.toString()).isZero();
    assertThat(csv.outLines()).hasSize(6);
    assertThat(csv.outLines().get(0)).isEqualTo("order_id,status,amount");
    assertThat(csv.outLines().subList(1, 6)).allSatisfy(l -> assertThat(l).matches("o-\\d{10},[a-z]+,[0-9.]+"));

    // the bronze table by path, at its first data version: only the first batch's files
    String bronze = dir.resolve("warehouse/bronze/orders").toString();
    SluiceProcess.Result table = sluice("read", bronze, "--version", "1", "--columns", "order_id,_batch_id",
        "--where", "_batch_id <> 0");
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.outLines().get(0)).contains("order_id", "_batch_id");
    assertThat(table.out()).contains("(0 rows; " + bronze + " version 1)");
    SluiceProcess.Result latest = sluice("read", bronze, "--limit", "3");
    assertThat(latest.outLines()).hasSize(2 + 3 + 1);
    assertThat(latest.out()).contains("more with --limit");
  }

  @Test
  void historyListsTheCommitsWithTheirLedger() throws IOException {
    SluiceProcess.Result r = sluice("history", "silver/orders", "--config", config.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.outLines().get(0)).contains("version", "time", "operation", "metrics");
    assertThat(r.out()).contains("STREAMING MERGE", "ledger.rowsIn=", "CREATE TABLE");

    SluiceProcess.Result json = sluice("history", "orders_silver", "--config", config.toString(), "--json", "-n", "1");
    assertThat(json.exitCode()).isZero();
    assertThat(json.outLines()).hasSize(1);
    JsonNode commit = JSON.readTree(json.out());
    assertThat(commit.path("operation").asText()).isEqualTo("STREAMING MERGE");
    assertThat(commit.path("operationMetrics").has("ledger.written")).isTrue();
  }

  @Test
  void stateListsTheOperatorsAndPrintsTheStateAndItsChanges() throws IOException {
    SluiceProcess.Result meta = sluice("state", config.toString(), "orders_silver", "--metadata", "--format", "json");
    assertThat(meta.exitCode()).as(meta.toString()).isZero();
    JsonNode op = JSON.readTree(meta.outLines().get(0));
    assertThat(op.path("operatorName").asText()).isEqualTo("dedupeWithinWatermark");
    assertThat(op.path("provider").asText()).isEqualTo("inmemory");
    assertThat(op.path("keySchema").asText()).contains("order_id");
    assertThat(op.path("maxBatchId").asLong(-1)).isGreaterThanOrEqualTo(0);

    SluiceProcess.Result table = sluice("state", config.toString(), "orders_silver", "--metadata");
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.outLines().get(0)).contains("operator", "name", "provider", "keys", "values", "batches");

    SluiceProcess.Result rows = sluice("state", config.toString(), "orders_silver", "--format", "json");
    assertThat(rows.exitCode()).as(rows.toString()).isZero();
    assertThat(rows.outLines()).isNotEmpty().allSatisfy(l -> assertThat(JSON.readTree(l).has("order_id")).isTrue());

    SluiceProcess.Result changes = sluice("state", config.toString(), "orders_silver", "--changes",
        op.path("maxBatchId").asText() + ".." + op.path("maxBatchId").asText(), "--format", "json");
    assertThat(changes.exitCode()).as(changes.toString()).isZero();
    for (String line : changes.outLines()) {
      assertThat(JSON.readTree(line).path("change_type").asText()).isIn("update", "delete");
    }

    SluiceProcess.Result bad = sluice("state", config.toString(), "orders_silver", "--changes", "5");
    assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(bad.err()).contains("--changes takes a batch range A..B");
  }

  @Test
  void tablesListsEachPipelinesTables() {
    SluiceProcess.Result r = sluice("tables", config.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.outLines().get(0)).contains("pipeline", "table", "version", "files", "rows", "uri");
    String bronze = r.outLines().stream().filter(l -> l.startsWith("orders_bronze  bronze/orders ")).findFirst()
        .orElseThrow();
    // every line but the broken ones (the quarantine table holds those, when there are any)
    assertThat(bronze.split("\\s+")[4]).isEqualTo(Values.count((long) FILES * LINES - brokenLines()));
    assertThat(r.out()).contains("silver/orders", "gold/revenue", dir.resolve("warehouse").toUri().getPath());
  }

  @Test
  void validateAcceptsTheExampleAndReportsEveryProblemOfABadFileWithPathAndLine() throws IOException {
    SluiceProcess.Result good = sluice("validate", config.toString());
    assertThat(good.exitCode()).as(good.toString()).isZero();
    assertThat(good.out()).startsWith("OK: 3 pipelines");

    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, """
        warehouse: file:///tmp/w
        pipelines:
          - name: orders
            layer: silver
            source: {pipeline: nope}
            sink: {tabel: silver/orders}
        """);
    SluiceProcess.Result r = sluice("validate", bad.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains(bad.toString(), "problems in the Sluice config")
        .contains("pipelines[0].source.pipeline: no pipeline is named `nope` (line 5)")
        .contains("unknown key `tabel`; did you mean `table`? (line 6)");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void errorsAreOneMessageWithTheRightExitCodeAndNoStackTrace() throws IOException {
    SluiceProcess.Result unknownPipeline = sluice("run", config.toString(), "--available-now", "--pipeline", "nope");
    assertThat(unknownPipeline.exitCode()).isEqualTo(2);
    assertThat(unknownPipeline.err()).contains("No pipeline named 'nope'", "orders_bronze").doesNotContain("\tat ");

    SluiceProcess.Result badWhere = sluice("read", "gold/revenue", "-c", config.toString(), "--where", "revenue >");
    assertThat(badWhere.exitCode()).isEqualTo(2);
    assertThat(badWhere.err()).contains("error:", "revenue >").doesNotContain("\tat ");

    SluiceProcess.Result noTable = sluice("history", dir.resolve("nothing-here").toString());
    assertThat(noTable.exitCode()).isEqualTo(1);
    assertThat(noTable.err()).contains("No Delta table at", "nothing-here").doesNotContain("\tat ");

    SluiceProcess.Result badWait = sluice("run", config.toString(), "--available-now", "--wait=soon");
    assertThat(badWait.exitCode()).isEqualTo(2);
    assertThat(badWait.err()).contains("Cannot read --wait 'soon'", "'5 minutes'").doesNotContain("\tat ");

    SluiceProcess.Result usage = sluice("read");
    assertThat(usage.exitCode()).isEqualTo(2);
    assertThat(usage.err()).contains("Missing required parameter");

    // a bronze source folder that does not exist: bronze fails, its downstreams are not run, exit code 1
    Path empty = dir.resolve("no-such-landing");
    SluiceProcess.Result failed = SluiceProcess.run(dir, Map.of("ORDERS_INPUT", empty.toString(), "CUSTOMERS_INPUT",
        dir.resolve("customers").toString(), "SLUICE_WAREHOUSE", dir.resolve("failing").toUri().toString()),
        "run", config.toString(), "--available-now");
    assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
    assertThat(failed.err()).contains("FAILED  orders_bronze", "FAILED  orders_silver  not run because its upstream")
        .doesNotContain("\tat ");

    // a batch that fails inside the query: its message (what, where, the fix), still no stack trace
    Files.createDirectories(dir.resolve("odd"));
    Files.writeString(dir.resolve("odd/a.json"), "{\"order_id\":\"o-1\",\"coupon\":\"X\"}\n");
    Path strict = dir.resolve("strict.yaml");
    Files.writeString(strict, """
        warehouse: %s
        pipelines:
          - name: strict_bronze
            layer: bronze
            source:
              format: json
              path: %s
              schema: [{name: order_id, type: string}]
              schema_evolution: failOnNewColumns
            sink: {table: bronze/strict}
        """.formatted(dir.resolve("strict").toUri(), dir.resolve("odd")));
    SluiceProcess.Result inBatch = sluice("run", strict.toString(), "--available-now");
    assertThat(inBatch.exitCode()).as(inBatch.toString()).isEqualTo(1);
    assertThat(inBatch.err()).contains("FAILED  strict_bronze", "field 'coupon'", "schema_evolution")
        .doesNotContain("\tat ");
    SluiceProcess.Result verbose = sluice("run", strict.toString(), "--available-now", "--verbose");
    assertThat(verbose.exitCode()).isEqualTo(1);
    assertThat(verbose.err()).contains("\tat ");
  }

  @Test
  void fsckListsThenRemovesADeletedDataFileSoTheTableReadsAgain() throws IOException {
    Path root = dir.resolve("fsck/events");
    Table t = Table.forUri(root.toUri(), Map.of());
    t.create(StructType.of(StructField.of("id", PrimitiveType.LONG))).commit();
    t.newAppend().rows(List.of(Row.of(1L), Row.of(2L))).commit();
    t.newAppend().rows(List.of(Row.of(3L), Row.of(4L), Row.of(5L))).commit();
    DataFile lost = t.snapshotAt(2).files().stream()
        .filter(f -> t.snapshotAt(1).files().stream().noneMatch(o -> o.key().equals(f.key()))).findFirst().orElseThrow();
    Files.delete(root.resolve(lost.key()));
    String table = root.toString();

    SluiceProcess.Result read = sluice("read", table);
    assertThat(read.exitCode()).as(read.toString()).isEqualTo(1);
    assertThat(read.err()).contains("Data file " + lost.logPath(), "version 2 of the table references it",
        "Restore the file", "sluice fsck file:" + root).doesNotContain("\tat ");

    SluiceProcess.Result dryRun = sluice("fsck", table, "--dry-run");
    assertThat(dryRun.exitCode()).as(dryRun.toString()).isZero();
    assertThat(dryRun.out()).contains(lost.logPath(), "Dry run: 1 missing data file (3 rows)", "nothing changed");
    assertThat(t.latestVersion()).hasValue(2);

    assertThat(dryRun.err()).doesNotContain(" INFO ");

    // --verbose shows the engine's INFO logs on standard error, here the repair's commit
    SluiceProcess.Result repair = sluice("fsck", table, "--verbose");
    assertThat(repair.exitCode()).as(repair.toString()).isZero();
    assertThat(repair.out()).contains(lost.logPath(), "Removed 1 missing data file (3 rows)", "in version 3");
    assertThat(repair.err()).contains(" INFO ", "Committed version 3 of file:" + root, "FSCK, 0 files added, 1 removed");

    try (CloseableIterator<Row> rows = Table.forUri(root.toUri(), Map.of()).latestSnapshot().scan().build().rows()) {
      assertThat(rows.toList()).containsExactly(Row.of(1L), Row.of(2L));
    }
  }

  @Test
  void demoRunsTheSampleThenLandsOneMoreFileAndShowsTheIncrement() throws IOException {
    Path work = Files.createTempDirectory("sluice-demo-test");
    SluiceProcess.Result first = SluiceProcess.run(work, Map.of(), "demo");
    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(work.resolve("sluice-demo/pipelines.yaml")).exists();
    assertThat(first.out()).contains("5 files of the orders sample", "Row ledger of this run", "gold/revenue (version 1")
        .contains("./sluice status sluice-demo/pipelines.yaml", "./sluice read gold/revenue", "./sluice history");
    assertThat(ledgerRow(first.out(), "orders_bronze")).startsWith("orders_bronze 1 2,000");

    SluiceProcess.Result second = SluiceProcess.run(work, Map.of(), "demo");
    assertThat(second.exitCode()).as(second.toString()).isZero();
    assertThat(second.out()).contains("(new: orders-00005.jsonl)", "gold/revenue (version 2", "this run:");
    assertThat(ledgerRow(second.out(), "orders_bronze")).startsWith("orders_bronze 1 400");

    // what the demo wrote is readable with the commands it suggests
    SluiceProcess.Result status = SluiceProcess.run(work, Map.of(), "status", "sluice-demo/pipelines.yaml", "--json");
    assertThat(JSON.readTree(status.out()).get(0).path("lastBatch").asLong()).isEqualTo(1);
  }

  /** A row of the demo's ledger table, spaces collapsed. */
  private static String ledgerRow(String out, String pipeline) {
    return out.lines().map(String::trim).filter(l -> l.startsWith(pipeline + " ")).findFirst().orElse("")
        .replaceAll("\\s+", " ");
  }

  private long brokenLines() {
    OrdersGenerator g = new OrdersGenerator(11);
    try {
      g.writeOrders(Files.createTempDirectory("count"), 0, FILES, LINES);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return g.brokenLines();
  }

  private SluiceProcess.Result sluice(String... args) {
    return SluiceProcess.run(dir, env, args);
  }

  static Path examples() {
    String root = System.getProperty("maven.multiModuleProjectDirectory");
    Path p = root != null ? Path.of(root, "examples") : Path.of("..", "examples");
    return Files.isDirectory(p) ? p : Path.of("..", "examples");
  }
}
