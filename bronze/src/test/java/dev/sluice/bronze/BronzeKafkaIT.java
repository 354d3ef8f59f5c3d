package dev.sluice.bronze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.KraftBroker;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.table.Table;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bronze from a Kafka topic configured in YAML, against a real in-process broker: good values land with their
 * lineage ({@code _source} = topic/partition/offset, key, Kafka timestamp), fields the schema lacks are rescued, and
 * values that are not JSON go to the quarantine table with their position; a second run takes only new records.
 */
class BronzeKafkaIT {
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  @TempDir Path tmp;

  private SluiceConfig config(String topic, String extra) {
    String yaml = "warehouse: " + tmp.resolve("wh").toUri() + "\n"
        + "pipelines:\n"
        + "  - name: " + BronzeFixture.PIPELINE + "\n"
        + "    layer: bronze\n"
        + "    source:\n"
        + "      format: kafka\n"
        + "      bootstrap_servers: ${env:BROKERS}\n"
        + "      topics: [" + topic + "]\n"
        + "      value_format: json\n"
        + "      schema: [{name: order_id, type: long}, {name: amount, type: double}]\n"
        + extra
        + "    sink: {table: bronze/orders}\n";
    return ConfigLoader.parse(yaml, "test.yaml", Map.of("BROKERS", broker.bootstrap()));
  }

  @Test
  void goodValuesLandWithLineageAndMalformedOnesAreQuarantinedWithTheirPosition() throws Exception {
    String topic = "orders-json";
    broker.createTopic(topic, 1);
    broker.send(topic, 0, "k1", List.of(
        "{\"order_id\":1,\"amount\":9.5}",
        "not json at all",
        "{\"order_id\":2,\"amount\":\"many\",\"coupon\":\"X\"}",
        "{\"order_id\":3,\"amount\":1.25}",
        "[1,2]"));
    Instant before = Instant.now().minusSeconds(60);
    try (SluiceSession session = SluiceSession.create()) {
      SluiceConfig config = config(topic, "      max_offsets_per_trigger: 2\n");
      StreamingQuery q = BronzeFixture.run(session, config);
      assertThat(q.exception()).isEmpty();
      Table bronze = session.table(tmp.resolve("wh/bronze/orders").toString());
      Table quarantine = session.table(tmp.resolve("wh/bronze/orders_quarantine").toString());
      List<Map<String, Object>> rows = BronzeFixture.rows(bronze).stream()
          .sorted(Comparator.comparing(r -> (String) r.get("_source"))).toList();
      assertThat(rows).extracting(r -> r.get("order_id")).containsExactly(1L, 2L, 3L);
      assertThat(rows).extracting(r -> r.get("_source"))
          .containsExactly(topic + "/0/0", topic + "/0/2", topic + "/0/3");
      assertThat(rows).allSatisfy(r -> {
        assertThat(r.get("_kafka_key")).isEqualTo("k1");
        assertThat((Instant) r.get("_kafka_timestamp")).isAfter(before);
      });
      // wrong type and unknown field rescued, as for files
      assertThat(rows.get(1).get("amount")).isNull();
      assertThat((String) rows.get(1).get("_rescued_data")).contains("\"amount\":\"many\"").contains("\"coupon\":\"X\"");
      List<Map<String, Object>> bad = BronzeFixture.rows(quarantine).stream()
          .sorted(Comparator.comparing(r -> (String) r.get("source"))).toList();
      assertThat(bad).extracting(r -> r.get("source")).containsExactly(topic + "/0/1", topic + "/0/4");
      assertThat(bad).extracting(r -> r.get("raw")).containsExactly("not json at all", "[1,2]");
      assertThat((String) bad.get(0).get("error")).contains("not valid JSON");
      BronzeFixture.assertLedgerBalances(bronze, quarantine, q.recentProgress());
      assertThat(q.recentProgress()).hasSizeGreaterThanOrEqualTo(3); // 5 records, at most 2 per batch

      broker.send(topic, 0, null, List.of("{\"order_id\":4,\"amount\":2.0}"));
      BronzeFixture.run(session, config);
      assertThat(BronzeFixture.rows(bronze)).extracting(r -> r.get("order_id")).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    }
  }

  @Test
  void textValuesLandInOneColumn() throws Exception {
    String topic = "lines-text";
    broker.createTopic(topic, 2);
    broker.send(topic, null, null, List.of("a", "b", "c"));
    String yaml = "warehouse: " + tmp.resolve("wh").toUri() + "\n"
        + "pipelines:\n"
        + "  - name: " + BronzeFixture.PIPELINE + "\n"
        + "    layer: bronze\n"
        + "    source: {format: kafka, bootstrap_servers: \"" + broker.bootstrap() + "\", topics: [" + topic + "],"
        + " value_format: text}\n"
        + "    sink: {table: bronze/orders}\n";
    try (SluiceSession session = SluiceSession.create()) {
      SluiceConfig config = ConfigLoader.parse(yaml, "test.yaml", Map.of());
      BronzeFixture.run(session, config);
      Table bronze = session.table(tmp.resolve("wh/bronze/orders").toString());
      assertThat(BronzeFixture.rows(bronze)).extracting(r -> r.get("value")).containsExactlyInAnyOrder("a", "b", "c");
      assertThat(BronzePipeline.tableSchema(config.pipeline(BronzeFixture.PIPELINE).orElseThrow()).orElseThrow()
          .fieldNames()).containsAll(bronze.latestSnapshot().schema().fieldNames());
    }
  }
}
