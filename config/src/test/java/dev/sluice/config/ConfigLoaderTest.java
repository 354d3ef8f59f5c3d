package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  private static final Map<String, String> ENV = Map.of(
      "AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY", "s3cr3t", "AWS_SESSION_TOKEN", "tok");

  static String resource(String name) throws IOException {
    try (InputStream in = ConfigLoaderTest.class.getResourceAsStream("/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void fullExampleParsesToTheExpectedModel() throws IOException {
    SluiceConfig config = ConfigLoader.parse(resource("full-example.yaml"), "full-example.yaml", ENV);

    assertThat(config.warehouse()).isEqualTo(URI.create("file:///tmp/sluice-warehouse"));
    assertThat(config.storage().endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(config.storage().region()).contains("us-east-1");
    assertThat(config.storage().pathStyle()).isTrue();
    assertThat(config.storage().accessKeyId()).contains(new Secret("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE"));
    assertThat(config.storage().secretAccessKey()).contains(new Secret("AWS_SECRET_ACCESS_KEY", "s3cr3t"));
    assertThat(config.storage().sessionToken()).contains(new Secret("AWS_SESSION_TOKEN", "tok"));
    assertThat(config.defaults()).isEqualTo(new Defaults(new TriggerConfig.AvailableNow(), OptionalInt.of(10), 20));
    assertThat(config.pipelines()).extracting(PipelineConfig::name)
        .containsExactly("orders_bronze", "customers_silver", "orders_silver", "revenue_gold");

    PipelineConfig bronze = config.pipeline("orders_bronze").orElseThrow();
    assertThat(bronze.layer()).isEqualTo(Layer.BRONZE);
    assertThat(bronze.source()).isEqualTo(new SourceConfig(SourceFormat.JSON,
        Optional.of("examples/orders/data/input"), Optional.empty(), Optional.empty(),
        Map.of("header", "true", "maxFilesPerTrigger", "5"),
        List.of(new ColumnSpec("order_id", "string", false), new ColumnSpec("amount", "decimal(10,2)", true),
            new ColumnSpec("event_time", "timestamp", true)),
        SchemaEvolution.ADD_NEW_COLUMNS));
    assertThat(bronze.sink()).isEqualTo(new SinkConfig("bronze/orders", List.of("ingest_date"), Optional.empty()));
    assertThat(bronze.trigger()).isEqualTo(new TriggerConfig.AvailableNow());
    assertThat(bronze.schedule()).contains(new ScheduleConfig.Cron("0 */5 * * * ?"));

    PipelineConfig customers = config.pipeline("customers_silver").orElseThrow();
    assertThat(customers.source().table()).contains("bronze/customers");
    assertThat(customers.source().format()).isEqualTo(SourceFormat.DELTA);
    assertThat(customers.source().options()).containsExactly(Map.entry("maxFilesPerTrigger", "10"));
    assertThat(customers.trigger()).isEqualTo(new TriggerConfig.Once());
    assertThat(customers.sink().merge()).contains(new MergeConfig(List.of("customer_id"), Optional.empty(),
        Optional.empty(), 1));

    PipelineConfig silver = config.pipeline("orders_silver").orElseThrow();
    assertThat(silver.source().pipeline()).contains("orders_bronze");
    assertThat(silver.source().table()).as("resolved from the upstream pipeline's sink").contains("bronze/orders");
    assertThat(silver.columns()).containsExactly(new DerivedColumn("amount", "CAST(amount AS DOUBLE)"));
    assertThat(silver.filter()).contains("status <> 'test'");
    assertThat(silver.expectations()).containsExactly(
        new Expectation("positive_amount", "amount > 0", ExpectationAction.QUARANTINE),
        new Expectation("has_customer", "customer_id IS NOT NULL", ExpectationAction.WARN));
    assertThat(silver.dedup()).contains(new DedupConfig(List.of("order_id", "updated_at"),
        Optional.of(new WatermarkConfig("event_time", new Interval("30 minutes", Duration.ofMinutes(30))))));
    assertThat(silver.sink().merge()).contains(new MergeConfig(List.of("order_id"), Optional.of("updated_at"),
        Optional.of("status = 'deleted'"), 2));
    assertThat(silver.trigger()).isEqualTo(
        new TriggerConfig.ProcessingTime(new Interval("30 seconds", Duration.ofSeconds(30))));
    assertThat(silver.after()).containsExactly("orders_bronze");

    PipelineConfig gold = config.pipeline("revenue_gold").orElseThrow();
    assertThat(gold.joins()).containsExactly(
        new JoinConfig(Optional.of("silver/customers"), Optional.of("customers_silver"), Optional.empty(),
            SourceFormat.DELTA, Map.of(), List.of(), List.of("customer_id"), JoinType.LEFT, JoinRefresh.EVERY_BATCH),
        new JoinConfig(Optional.empty(), Optional.empty(), Optional.of("/data/regions"), SourceFormat.CSV,
            Map.of("header", "true"), List.of(new ColumnSpec("region", "string", true)), List.of("region"),
            JoinType.INNER, JoinRefresh.ONCE));
    Interval minute = new Interval("1 minute", Duration.ofMinutes(1));
    assertThat(gold.aggregate()).contains(new AggregateConfig(List.of("tier"),
        Optional.of(new WindowConfig("event_time", minute, minute)),
        List.of("sum(amount) AS revenue", "count(*) AS orders"), AggregateOutputMode.APPEND,
        Optional.of(new WatermarkConfig("event_time", new Interval("10 minutes", Duration.ofMinutes(10))))));
    assertThat(gold.aggregate().orElseThrow().window().orElseThrow().isTumbling()).isTrue();
    assertThat(gold.schedule()).contains(new ScheduleConfig.Every(new Interval("5 minutes", Duration.ofMinutes(5))));
    assertThat(gold.after()).containsExactly("orders_silver", "customers_silver");
  }

  @Test
  void envVariablesReplaceReferencesAndDefaultsApplyWhenUnsetOrEmpty() {
    String yaml = "warehouse: ${env:WH:-file:///default}\n"
        + "pipelines:\n"
        + "  - name: b\n"
        + "    layer: bronze\n"
        + "    source: {format: json, path: \"${env:BASE}/in-${env:EMPTY:-x}-$${env:LITERAL}\"}\n"
        + "    sink: {table: \"${env:TABLE:-bronze/b}\"}\n";
    SluiceConfig set = ConfigLoader.parse(yaml, "t.yaml", Map.of("WH", "s3://bucket/wh", "BASE", "/data",
        "EMPTY", "", "TABLE", "raw/b"));
    assertThat(set.warehouse()).isEqualTo(URI.create("s3://bucket/wh"));
    assertThat(set.isS3()).isTrue();
    assertThat(set.pipelines().get(0).source().path()).contains("/data/in-x-${env:LITERAL}");
    assertThat(set.pipelines().get(0).sink().table()).isEqualTo("raw/b");
    assertThat(set.tableUri("raw/b")).isEqualTo(URI.create("s3://bucket/wh/raw/b"));

    SluiceConfig defaults = ConfigLoader.parse(yaml, "t.yaml", Map.of("BASE", "/d"));
    assertThat(defaults.warehouse()).isEqualTo(URI.create("file:///default"));
    assertThat(defaults.pipelines().get(0).sink().table()).isEqualTo("bronze/b");
    assertThat(defaults.tableUri("bronze/b")).isEqualTo(URI.create("file:///default/bronze/b"));
  }

  @Test
  void storageTimeoutsAreIntervalsAndUnsetOnesKeepTheEngineDefault() {
    SluiceConfig config = ConfigLoader.parse("warehouse: s3://b/w\n"
        + "storage: {endpoint: http://127.0.0.1:9000, socket_timeout: 2 minutes, attempt_timeout: 500 ms}\n"
        + "pipelines:\n"
        + "  - {name: b, layer: bronze, source: {format: parquet, path: in}, sink: {table: b}}\n", "t", Map.of());
    StorageConfig.Timeouts t = config.storage().timeouts();
    assertThat(t.connection()).isEmpty();
    assertThat(t.socket()).map(Interval::duration).contains(java.time.Duration.ofMinutes(2));
    assertThat(t.attempt()).map(Interval::duration).contains(java.time.Duration.ofMillis(500));
  }

  @Test
  void absentOptionalSectionsGetTheirDefaults() {
    SluiceConfig config = ConfigLoader.parse("warehouse: file:///w\npipelines:\n"
        + "  - {name: b, layer: bronze, source: {format: parquet, path: in}, sink: {table: b}}\n", "t", Map.of());
    assertThat(config.storage()).isEqualTo(StorageConfig.none());
    assertThat(config.defaults()).isEqualTo(Defaults.standard());
    PipelineConfig b = config.pipelines().get(0);
    assertThat(b.trigger()).isEqualTo(new TriggerConfig.AvailableNow());
    assertThat(b.source().schemaEvolution()).isEqualTo(SchemaEvolution.RESCUE);
    assertThat(b.source().options()).isEmpty();
    assertThat(b.schedule()).isEmpty();
    assertThat(b.after()).isEmpty();
  }

  @Test
  void loadReadsAFileAndNamesItInProblems(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("pipelines.yaml");
    Files.writeString(file, "warehouse: file:///w\npipelines: []\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(file + ": 1 problem in the Sluice config\n  pipelines: must hold at least one pipeline (line 2)");

    Path missing = dir.resolve("nope.yaml");
    assertThatThrownBy(() -> ConfigLoader.load(missing, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(missing + ": 1 problem in the Sluice config\n  the file does not exist");
  }

  @Test
  void secretsNeverShowInToString() {
    assertThat(new Secret("AWS_SECRET_ACCESS_KEY", "s3cr3t").toString())
        .isEqualTo("${env:AWS_SECRET_ACCESS_KEY}=****").doesNotContain("s3cr3t");
  }

  @Test
  void aPlainAbsoluteWarehousePathIsALocalFileUri(@TempDir Path dir) {
    String yaml = "warehouse: %s\npipelines:\n  - {name: b, layer: bronze, source: {format: json, path: in},"
        + " sink: {table: bronze/b}}\n";
    SluiceConfig plain = ConfigLoader.parse(String.format(yaml, "/data/wh"), "t.yaml", Map.of());
    SluiceConfig existing = ConfigLoader.parse(String.format(yaml, dir + "/./"), "t.yaml", Map.of());

    assertThat(plain.warehouse()).isEqualTo(URI.create("file:///data/wh"));
    assertThat(plain.tableUri("bronze/b")).isEqualTo(URI.create("file:///data/wh/bronze/b"));
    assertThat(existing.warehouse()).as("an existing folder, normalised, without a trailing /")
        .isEqualTo(URI.create("file://" + dir));
  }

  @Test
  void tombstoneRetentionDefaultsToTwoDaysAndIsAnInterval() {
    String yaml = "warehouse: file:///wh/\npipelines:\n  - name: s\n    layer: silver\n    source: {table: bronze/o}\n"
        + "    sink: {table: silver/o, merge: {keys: [id], sequence_by: v%s}}\n";
    assertThat(ConfigLoader.parse(yaml.formatted(""), "a.yaml", Map.of()).pipeline("s").orElseThrow().sink().merge()
        .orElseThrow().tombstoneRetention().duration()).isEqualTo(Duration.ofDays(2));
    assertThat(ConfigLoader.parse(yaml.formatted(", tombstone_retention: 3 hours"), "a.yaml", Map.of()).pipeline("s")
        .orElseThrow().sink().merge().orElseThrow().tombstoneRetention()).isEqualTo(new Interval("3 hours",
            Duration.ofHours(3)));
    assertThatThrownBy(() -> ConfigLoader.parse(yaml.formatted(", tombstone_retention: soon"), "a.yaml", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("pipelines[0].sink.merge.tombstone_retention: `soon` is not an interval");
  }
}
