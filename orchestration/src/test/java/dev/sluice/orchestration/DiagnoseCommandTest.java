package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.cli.SluiceCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice diagnose} on the orders example: a clean state, a changed plan, a held lease, a pending batch. */
class DiagnoseCommandTest {
  @TempDir Path dir;
  private OrdersScenario scenario;
  private Path config;

  @BeforeEach
  void runOnce() throws IOException {
    scenario = new OrdersScenario(dir, dir.resolve("warehouse").toUri().toString(), Map.of());
    scenario.land(3, 100);
    try (SluiceSession session = Sessions.forConfig(scenario.config)) {
      assertThat(scenario.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
    }
    config = writeConfig(Files.readString(OrdersScenario.examples().resolve("orders/pipelines.yaml")));
  }

  private Path writeConfig(String yaml) throws IOException {
    Path file = dir.resolve("pipelines-" + System.nanoTime() + ".yaml");
    Files.writeString(file, yaml
        .replace("${env:SLUICE_WAREHOUSE:-file:///tmp/sluice-warehouse}", dir.resolve("warehouse").toUri().toString())
        .replace("${env:ORDERS_INPUT:-examples/orders/data/input}", dir.resolve("input").toString())
        .replace("${env:CUSTOMERS_INPUT:-examples/orders/data/customers}", dir.resolve("customers").toString()));
    return file;
  }

  private record Out(int exit, String out, String err) {}

  private static Out diagnose(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "diagnose";
    System.arraycopy(args, 0, all, 1, args.length);
    int exit = SluiceCli.execute(all, new PrintWriter(out, true), new PrintWriter(err, true), false);
    return new Out(exit, out.toString(), err.toString());
  }

  private Path checkpoint(String table, String pipeline) {
    return dir.resolve("warehouse").resolve(table).resolve("_checkpoints").resolve(pipeline);
  }

  @Test
  void aCleanWarehouseHasNoWarningAndChangesNothing() throws IOException {
    Map<String, Long> before;
    try (SluiceSession session = Sessions.forConfig(scenario.config)) {
      before = scenario.versions(session);
    }
    long files = Files.walk(dir.resolve("warehouse")).count();
    Out r = diagnose(config.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("fingerprint", "the config's stateful plan fits the checkpoint", "not held",
        "reachable, backlog 0 files", "protocol reader", "no orphan files", "state");
    assertThat(Files.walk(dir.resolve("warehouse")).count()).as("diagnose writes nothing").isEqualTo(files);
    try (SluiceSession session = Sessions.forConfig(scenario.config)) {
      assertThat(scenario.versions(session)).isEqualTo(before);
    }
  }

  @Test
  void aChangedStatefulPlanIsAnErrorListingTheDifference() throws IOException {
    Path changed = writeConfig(Files.readString(OrdersScenario.examples().resolve("orders/pipelines.yaml"))
        .replace("dedup: {keys: [order_id, updated_at]", "dedup: {keys: [order_id]"));
    Out r = diagnose(changed.toString(), "--pipeline", "orders_silver", "--json");
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(json).hasSize(1);
    JsonNode fingerprint = json.get(0).get("findings").get(0);
    assertThat(fingerprint.get("check").asText()).isEqualTo("fingerprint");
    assertThat(fingerprint.get("severity").asText()).isEqualTo("ERROR");
    assertThat(fingerprint.get("facts").get("differences").toString()).contains("updated_at");
    assertThat(json.get(0).get("severity").asText()).isEqualTo("ERROR");
  }

  @Test
  void aLeaseOfADeadProcessAndAPendingBatchAreWarnings() throws IOException {
    Path bronze = checkpoint("bronze/orders", "orders_bronze");
    Files.writeString(bronze.resolve("runner"), "{\"runId\":\"00000000-0000-0000-0000-000000000001\",\"host\":\""
        + Long.MAX_VALUE / 2 + "@" + java.net.InetAddress.getLocalHost().getHostName() + "\",\"heartbeatAt\":\""
        + Instant.now() + "\"}");
    Path commits = bronze.resolve("commits");
    long last;
    try (var s = Files.list(commits)) {
      last = s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+")).mapToLong(Long::parseLong).max()
          .getAsLong();
    }
    Files.delete(commits.resolve(Long.toString(last)));
    scenario.land(1, 50);

    Out r = diagnose(config.toString(), "--pipeline", "orders_bronze");
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out()).contains("whose process is gone", "batch " + last + " was planned",
        "its rows are already in the table", "backlog 1 files");
  }

  @Test
  void anUnknownPipelineIsAUsageError() {
    Out r = diagnose(config.toString(), "--pipeline", "nope");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("orders_bronze");
  }
}
