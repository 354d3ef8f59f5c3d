package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.KraftBroker;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.cli.SluiceCli;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/clickstream end to end on an in-process broker: {@code sluice produce-demo} writes clicks (duplicates and
 * malformed records among them), the three pipelines run available-now, and every layer is checked against a plain
 * computation over the records in the topic.
 */
class ClickstreamExampleTest {
  private static final Duration GAP = Duration.ofMinutes(10);
  private static final Duration DELAY = Duration.ofMinutes(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void produceDemoThroughBronzeSilverAndGoldSessions() throws Exception {
    try (KraftBroker broker = KraftBroker.start()) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = SluiceCli.execute(new String[] {"produce-demo", "--bootstrap-servers", broker.bootstrap(),
          "--events", "2000", "--users", "20", "--seed", "7"}, new PrintWriter(out), new PrintWriter(err), false);
      assertThat(code).as("stdout %s stderr %s", out, err).isZero();
      assertThat(out.toString()).contains("wrote 2,000 records to clicks");

      // the oracle: what the topic holds
      List<ConsumerRecord<byte[], byte[]>> records = broker.readUncommitted("clicks");
      assertThat(records).hasSize(2000);
      List<String> notJson = new ArrayList<>();
      int jsonValues = 0;
      Set<String> withoutUser = new TreeSet<>();
      Map<String, JsonNode> valid = new TreeMap<>();
      for (ConsumerRecord<byte[], byte[]> r : records) {
        String value = new String(r.value(), StandardCharsets.UTF_8);
        JsonNode node;
        try {
          node = JSON.readTree(value);
        } catch (Exception e) {
          notJson.add(value);
          continue;
        }
        jsonValues++;
        if (node.hasNonNull("user_id")) {
          valid.put(node.get("event_id").asText(), node);
        } else {
          withoutUser.add(node.get("event_id").asText());
        }
      }
      assertThat(jsonValues - valid.size() - withoutUser.size()).as("duplicates").isPositive();
      assertThat(notJson).isNotEmpty();
      assertThat(withoutUser).isNotEmpty();

      SluiceConfig config = ConfigLoader.load(OrdersScenario.examples().resolve("clickstream/pipelines.yaml"),
          Map.of("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrap(), "SLUICE_WAREHOUSE", tmp.resolve("wh").toUri().toString()));
      try (SluiceSession session = SluiceSession.create()) {
        List<PipelineRunner.RunResult> results = PipelineRunner.runAvailableNow(session, config, List.of());
        assertThat(results).allSatisfy(r -> assertThat(r.failure()).as(r.pipeline()).isEmpty());

        // bronze: every JSON record (duplicates too); quarantine: the rest
        assertThat(OrdersScenario.rows(table(session, config, "bronze/clicks"))).hasSize(jsonValues);
        Table bronzeQuarantine = table(session, config, "bronze/clicks_quarantine");
        int raw = bronzeQuarantine.latestSnapshot().schema().indexOf("raw");
        assertThat(OrdersScenario.rows(bronzeQuarantine)).extracting(r -> (String) r.get(raw))
            .containsExactlyInAnyOrderElementsOf(notJson);

        // silver: every valid distinct event once
        Table silver = table(session, config, "silver/clicks");
        StructType s = silver.latestSnapshot().schema();
        List<String> silverIds = OrdersScenario.rows(silver).stream().map(r -> (String) r.get(s.indexOf("event_id"))).toList();
        assertThat(silverIds).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(valid.keySet());

        // silver's quarantine: the clicks without a user, with the expectation they failed
        Table silverQuarantine = table(session, config, "silver/clicks_quarantine");
        StructType q = silverQuarantine.latestSnapshot().schema();
        List<Row> quarantined = OrdersScenario.rows(silverQuarantine);
        assertThat(quarantined).extracting(r -> (String) r.get(q.indexOf("event_id")))
            .containsOnlyElementsOf(withoutUser).containsAll(withoutUser);
        assertThat(quarantined).allSatisfy(r -> assertThat(String.valueOf(r.get(q.indexOf("_failed_expectations"))))
            .contains("has_user"));

        // gold: the sessions the watermark has closed, as a plain computation gives them
        Table gold = table(session, config, "gold/sessions");
        StructType g = gold.latestSnapshot().schema();
        Set<String> sessions = new HashSet<>();
        for (Row r : OrdersScenario.rows(gold)) {
          sessions.add(r.get(g.indexOf("user_id")) + "|" + r.get(g.indexOf("window_start")) + "|"
              + r.get(g.indexOf("window_end")) + "|" + r.get(g.indexOf("clicks")));
        }
        assertThat(sessions).isNotEmpty().isEqualTo(expectedSessions(valid.values()));
      }
    }
  }

  private static Table table(SluiceSession session, SluiceConfig config, String relative) {
    return session.table(config.tableUri(relative).toString());
  }

  /** Sessions per user (a click within GAP of the session's last click extends it), closed by the final watermark. */
  private static Set<String> expectedSessions(Iterable<JsonNode> events) {
    Map<String, TreeSet<Instant>> byUser = new TreeMap<>();
    Instant max = Instant.MIN;
    for (JsonNode e : events) {
      Instant t = Instant.parse(e.get("event_time").asText());
      byUser.computeIfAbsent(e.get("user_id").asText(), u -> new TreeSet<>()).add(t);
      max = t.isAfter(max) ? t : max;
    }
    Instant watermark = max.minus(DELAY);
    Set<String> out = new HashSet<>();
    byUser.forEach((user, times) -> {
      Instant start = null;
      Instant end = null;
      long clicks = 0;
      for (Instant t : times) {
        if (start != null && t.isAfter(end)) {
          close(out, user, start, end, clicks, watermark);
          start = null;
        }
        if (start == null) {
          start = t;
          clicks = 0;
        }
        end = t.plus(GAP);
        clicks++;
      }
      close(out, user, start, end, clicks, watermark);
    });
    return out;
  }

  private static void close(Set<String> out, String user, Instant start, Instant end, long clicks, Instant watermark) {
    if (!end.isAfter(watermark)) {
      out.add(user + "|" + start + "|" + end + "|" + clicks);
    }
  }
}
