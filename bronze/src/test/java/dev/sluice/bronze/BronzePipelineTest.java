package dev.sluice.bronze;

import static dev.sluice.bronze.BronzeFixture.assertLedgerBalances;
import static dev.sluice.bronze.BronzeFixture.config;
import static dev.sluice.bronze.BronzeFixture.rows;
import static dev.sluice.bronze.BronzeFixture.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryException;
import dev.sluice.table.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BronzePipelineTest {
  static final String SCHEMA = "[{name: order_id, type: long}, {name: customer, type: string},"
      + " {name: amount, type: 'decimal(10,2)'}, {name: updated_at, type: timestamp}]";

  @TempDir Path tmp;
  Path input;
  SluiceSession session;

  @BeforeEach
  void setUp() throws IOException {
    input = Files.createDirectories(tmp.resolve("landing"));
    session = SluiceSession.create();
  }

  @AfterEach
  void tearDown() {
    session.close();
  }

  SluiceConfig json(String evolution) {
    return config(tmp.resolve("wh").toUri().toString(), "{format: json, path: " + input + ", schema: " + SCHEMA
        + (evolution == null ? "" : ", schema_evolution: " + evolution) + "}", "");
  }

  Table bronze() {
    return session.table(tmp.resolve("wh/bronze/orders").toString());
  }

  Table quarantine() {
    return session.table(tmp.resolve("wh/bronze/orders_quarantine").toString());
  }

  void land(String name, String... lines) throws IOException {
    Path file = input.resolve(name);
    Files.writeString(tmp.resolve(".tmp-" + name), String.join("\n", lines) + "\n");
    Files.move(tmp.resolve(".tmp-" + name), file);
  }

  static String line(long id, String customer, String amount) {
    return "{\"order_id\":" + id + ",\"customer\":\"" + customer + "\",\"amount\":" + amount
        + ",\"updated_at\":\"2026-01-01T00:00:0" + (id % 10) + "Z\"}";
  }

  @Test
  void rescueKeepsEveryValidLineOnceWithLineageAndQuarantinesBrokenLines() throws IOException {
    land("a.json",
        line(1, "ann", "10.50"),
        "{\"order_id\":2,\"customer\":\"bob\",\"amount\":\"lots\",\"updated_at\":\"2026-01-01T00:00:02Z\",\"coupon\":\"X1\"}",
        "{\"order_id\":3,\"customer\":",
        line(4, "cy", "4"),
        "not json at all");
    StreamingQuery q = run(session, json(null));

    List<Map<String, Object>> rows = rows(bronze());
    assertThat(bronze().latestSnapshot().schema().fieldNames()).containsExactly("order_id", "customer", "amount",
        "updated_at", "_rescued_data", "_ingested_at", "_source", "_batch_id");
    assertThat(rows).extracting(r -> r.get("order_id")).containsExactlyInAnyOrder(1L, 2L, 4L);
    Map<Object, Map<String, Object>> byId = rows.stream().collect(Collectors.toMap(r -> r.get("order_id"), r -> r));
    assertThat(byId.get(1L).get("amount")).isEqualTo(new java.math.BigDecimal("10.50"));
    assertThat(byId.get(1L).get("_rescued_data")).isNull();
    assertThat(byId.get(2L).get("amount")).isNull();
    assertThat(byId.get(2L).get("customer")).isEqualTo("bob");
    assertThat(byId.get(2L).get("_rescued_data")).isEqualTo("{\"amount\":\"lots\",\"coupon\":\"X1\"}");
    Instant ingestedAt = (Instant) rows.get(0).get("_ingested_at");
    assertThat(ingestedAt).isNotNull();
    String file = "file:" + input.resolve("a.json");
    assertThat(rows).allSatisfy(r -> {
      assertThat(r.get("_source")).isEqualTo(file);
      assertThat(r.get("_batch_id")).isEqualTo(0L);
      assertThat(r.get("_ingested_at")).isEqualTo(ingestedAt);
    });

    List<Map<String, Object>> bad = rows(quarantine());
    assertThat(quarantine().latestSnapshot().schema().fieldNames())
        .containsExactly("raw", "error", "source", "batch_id", "ingested_at");
    assertThat(bad).extracting(r -> r.get("raw"))
        .containsExactlyInAnyOrder("{\"order_id\":3,\"customer\":", "not json at all");
    assertThat(bad).allSatisfy(r -> {
      assertThat(r.get("source")).isEqualTo(file);
      assertThat(r.get("batch_id")).isEqualTo(0L);
      assertThat(r.get("ingested_at")).isEqualTo(ingestedAt);
      assertThat((String) r.get("error")).matches("line [35]: not valid JSON: .*");
    });
    Map<String, Long> observed = q.lastProgress().orElseThrow().observedMetrics();
    assertThat(observed).containsEntry("ledger.rowsIn", 5L).containsEntry("ledger.written", 3L)
        .containsEntry("ledger.quarantined", 2L).containsEntry("ledger.dropped", 0L);
    assertLedgerBalances(bronze(), quarantine(), q.recentProgress());
  }

  @Test
  void aLargeBatchQuarantinesExactlyItsBrokenLinesWhereverTheyLie() throws IOException {
    int n = 50_000; // over two slices of the lineage step's parallel look for quarantined rows
    List<Integer> broken = List.of(0, 16_383, 16_384, 33_000, n - 1);
    String[] lines = new String[n];
    for (int i = 0; i < n; i++) {
      lines[i] = broken.contains(i) ? "{broken " + i : line(i, "c" + (i % 7), "1.25");
    }
    land("a.json", lines);
    StreamingQuery q = run(session, json(null));

    assertThat(rows(quarantine())).extracting(r -> r.get("raw")).containsExactlyInAnyOrderElementsOf(
        broken.stream().map(i -> "{broken " + i).toList());
    List<Map<String, Object>> rows = rows(bronze());
    assertThat(rows).hasSize(n - broken.size());
    assertThat(rows).extracting(r -> ((Long) r.get("order_id")).intValue()).doesNotContainAnyElementsOf(broken)
        .doesNotHaveDuplicates();
    assertThat(q.lastProgress().orElseThrow().observedMetrics()).containsEntry("ledger.quarantined", 5L)
        .containsEntry("ledger.written", (long) n - 5);
    assertLedgerBalances(bronze(), quarantine(), q.recentProgress());
  }

  @Test
  void reRunningWithoutNewInputCommitsNothingAndANewFileIsAppendedAlone() throws IOException {
    land("a.json", line(1, "ann", "1"), "{broken");
    SluiceConfig config = json("rescue");
    StreamingQuery first = run(session, config);
    long bronzeVersion = bronze().latestVersion().getAsLong();
    long quarantineVersion = quarantine().latestVersion().getAsLong();

    StreamingQuery idle = run(session, config);
    assertThat(idle.recentProgress()).isEmpty();
    assertThat(bronze().latestVersion().getAsLong()).isEqualTo(bronzeVersion);
    assertThat(quarantine().latestVersion().getAsLong()).isEqualTo(quarantineVersion);

    land("b.json", line(2, "bob", "2"), line(3, "cy", "3"));
    StreamingQuery second = run(session, config);
    List<Map<String, Object>> rows = rows(bronze());
    assertThat(rows).extracting(r -> r.get("order_id")).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(rows).filteredOn(r -> r.get("_batch_id").equals(1L))
        .extracting(r -> r.get("_source")).containsOnly("file:" + input.resolve("b.json")).hasSize(2);
    assertThat(rows(quarantine())).hasSize(1);
    assertThat(BronzeFixture.batchCommits(bronze())).hasSize(2);
    assertThat(BronzeFixture.batchCommits(bronze()).get(1).operationMetrics())
        .containsEntry("ledger.rowsIn", "2").containsEntry("ledger.quarantined", "0");
    List<dev.sluice.ingestion.QueryProgress> progress = new java.util.ArrayList<>(first.recentProgress());
    progress.addAll(second.recentProgress());
    assertLedgerBalances(bronze(), quarantine(), progress);
  }

  @Test
  void csvRescuesWrongTypesAndExtraColumnsAndQuarantinesUnparseableLines() throws IOException {
    land("a.csv",
        "order_id,customer,amount,updated_at,channel",
        "1,ann,10.5,2026-01-01T00:00:00Z,web",
        "2,bob,lots,2026-01-01T00:00:01Z,",
        "3,\"cy,2.0,2026-01-01T00:00:02Z",
        "4,dee,1");
    SluiceConfig config = config(tmp.resolve("wh").toUri().toString(), "{format: csv, path: " + input
        + ", options: {header: 'true'}, schema: " + SCHEMA + "}", "");
    StreamingQuery q = run(session, config);
    List<Map<String, Object>> rows = rows(bronze());
    assertThat(rows).extracting(r -> r.get("order_id"), r -> r.get("_rescued_data")).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple(1L, "{\"channel\":\"web\"}"),
        org.assertj.core.groups.Tuple.tuple(2L, "{\"amount\":\"lots\"}"));
    assertThat(rows(quarantine())).extracting(r -> r.get("raw"), r -> r.get("error")).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("3,\"cy,2.0,2026-01-01T00:00:02Z", "line 4: field 2: quote not closed"),
        org.assertj.core.groups.Tuple.tuple("4,dee,1",
            "line 5: expected 4 fields [order_id, customer, amount, updated_at] but found 3"));
    assertLedgerBalances(bronze(), quarantine(), q.recentProgress());
  }

  @Test
  void addNewColumnsAddsStringColumnsAndQuarantinesWrongTypes() throws IOException {
    land("a.json", line(1, "ann", "1"));
    SluiceConfig config = json("addNewColumns");
    run(session, config);
    land("b.json",
        "{\"order_id\":2,\"customer\":\"bob\",\"amount\":2,\"coupon\":\"X1\",\"gift\":true}",
        "{\"order_id\":3,\"customer\":\"cy\",\"amount\":3,\"Coupon\":{\"code\":7}}",
        "{\"order_id\":4,\"customer\":\"dee\",\"amount\":\"four\",\"coupon\":\"Y\"}");
    StreamingQuery q = run(session, config);
    assertThat(bronze().latestSnapshot().schema().fieldNames()).containsExactly("order_id", "customer", "amount",
        "updated_at", "_ingested_at", "_source", "_batch_id", "coupon", "gift");
    Map<Object, Map<String, Object>> byId = rows(bronze()).stream()
        .collect(Collectors.toMap(r -> r.get("order_id"), r -> r));
    assertThat(byId).containsOnlyKeys(1L, 2L, 3L);
    assertThat(byId.get(1L).get("coupon")).isNull();
    assertThat(byId.get(2L).get("coupon")).isEqualTo("X1");
    assertThat(byId.get(2L).get("gift")).isEqualTo("true");
    assertThat(byId.get(3L).get("coupon")).isEqualTo("{\"code\":7}");
    assertThat(rows(quarantine())).singleElement().satisfies(r -> {
      assertThat(r.get("raw")).isEqualTo("{\"order_id\":4,\"customer\":\"dee\",\"amount\":\"four\",\"coupon\":\"Y\"}");
      assertThat(r.get("error")).isEqualTo("line 3: field 'amount': cannot read 'four' as decimal(10,2)");
      assertThat(r.get("batch_id")).isEqualTo(1L);
    });
    assertLedgerBalances(bronze(), quarantine(), q.recentProgress());
  }

  @Test
  void failOnNewColumnsFailsTheBatchNamingTheFieldAndFileAndWritesNothing() throws IOException {
    land("a.json", line(1, "ann", "1"));
    SluiceConfig config = json("failOnNewColumns");
    run(session, config);
    long version = bronze().latestVersion().getAsLong();
    land("b.json", "{broken", line(2, "bob", "2"), "{\"order_id\":3,\"customer\":\"cy\",\"vip\":true}");
    String file = "file:" + input.resolve("b.json");
    assertThatThrownBy(() -> run(session, config))
        .isInstanceOf(StreamingQueryException.class)
        .cause().isInstanceOf(NewColumnsException.class)
        .hasMessage("Pipeline 'orders_bronze': field 'vip' in file " + file + " is not in the schema of bronze table "
            + bronze().uri() + " (schema_evolution: failOnNewColumns); the batch was not written. Add the field to"
            + " source.schema, or set schema_evolution to addNewColumns or rescue.");
    assertThat(bronze().latestVersion().getAsLong()).isEqualTo(version);
    assertThat(quarantine().exists()).isFalse();
    assertThat(bronze().latestSnapshot().schema().fieldNames()).containsExactly("order_id", "customer", "amount",
        "updated_at", "_ingested_at", "_source", "_batch_id");
  }

  @Test
  void anInferredSchemaRescuesFieldsThatAppearLaterAndPartitionsAsConfigured() throws IOException {
    land("a.json", "{\"order_id\":1,\"day\":\"2026-01-01\",\"amount\":1.5}", "{\"order_id\":2,\"day\":\"2026-01-02\"}");
    SluiceConfig config = config(tmp.resolve("wh").toUri().toString(), "{format: json, path: " + input + "}",
        ", partition_by: [day]");
    run(session, config);
    land("b.json", "{\"order_id\":3,\"day\":\"2026-01-02\",\"note\":\"late\"}");
    StreamingQuery q = run(session, config);
    assertThat(bronze().latestSnapshot().partitionColumns()).containsExactly("day");
    assertThat(rows(bronze())).extracting(r -> r.get("order_id"), r -> r.get("_rescued_data"))
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(1L, null),
            org.assertj.core.groups.Tuple.tuple(2L, null),
            org.assertj.core.groups.Tuple.tuple(3L, "{\"note\":\"late\"}"));
    assertLedgerBalances(bronze(), quarantine(), q.recentProgress());
  }

  @Test
  void aBadPartitionColumnIsNamed() throws IOException {
    land("a.json", line(1, "ann", "1"));
    SluiceConfig config = config(tmp.resolve("wh").toUri().toString(), "{format: json, path: " + input
        + ", schema: " + SCHEMA + "}", ", partition_by: [dayy]");
    assertThatThrownBy(() -> run(session, config))
        .isInstanceOf(StreamingQueryException.class)
        .cause().isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Pipeline 'orders_bronze': sink.partition_by names 'dayy', which is not a column of bronze table "
            + bronze().uri() + "; its columns are [order_id, customer, amount, updated_at, _rescued_data, _ingested_at,"
            + " _source, _batch_id]. Fix partition_by.");
  }
}
