package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.orchestration.demo.OrdersGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice serve} in a child JVM: schedules run the chain, SIGTERM stops it cleanly, status shows the runs. */
class ServeCommandIT {
  @TempDir Path dir;

  @Test
  void serveRunsTheScheduledChainAndStopsOnSigterm() throws Exception {
    OrdersGenerator generator = new OrdersGenerator(5);
    generator.writeOrders(dir.resolve("input"), 0, 2, 200);
    generator.writeCustomers(dir.resolve("customers"), 10_000);
    String yaml = Files.readString(SluiceCliIT.examples().resolve("orders/pipelines.yaml"))
        .replace("    sink: {table: bronze/orders}", "    sink: {table: bronze/orders}\n    schedule: {every: 2 seconds}");
    Path config = dir.resolve("pipelines.yaml");
    Files.writeString(config, yaml);
    Map<String, String> env = Map.of("ORDERS_INPUT", dir.resolve("input").toString(),
        "CUSTOMERS_INPUT", dir.resolve("customers").toString(),
        "SLUICE_WAREHOUSE", dir.resolve("warehouse").toUri().toString());

    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", SluiceProcess.classpath(), SluiceCli.class.getName(), "serve", config.toString(),
        "--http", "127.0.0.1:0")
        .directory(dir.toFile()).redirectOutput(dir.resolve("serve.out").toFile())
        .redirectError(dir.resolve("serve.err").toFile());
    pb.environment().putAll(env);
    pb.environment().remove("SLUICE_API_TOKEN");
    Process serve = pb.start();
    Path goldLog = dir.resolve("warehouse/gold/revenue/_delta_log");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.isDirectory(goldLog) && System.nanoTime() < deadline && serve.isAlive()) {
      Thread.sleep(200);
    }
    assertThat(Files.isDirectory(goldLog)).as(Files.readString(dir.resolve("serve.err"))).isTrue();
    serve.destroy();   // SIGTERM
    assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = Files.readString(dir.resolve("serve.out"), StandardCharsets.UTF_8);
    assertThat(out).contains("orders_bronze: scheduled", "orders_silver: after orders_bronze", "Serving 3 pipelines",
        "HTTP API, metrics and dashboard on http://127.0.0.1:");

    SluiceProcess.Result status = SluiceProcess.run(dir, env, "status", config.toString(), "--json");
    assertThat(status.exitCode()).as(status.toString()).isZero();
    JsonNode pipelines = new ObjectMapper().readTree(status.out());
    for (JsonNode p : pipelines) {
      assertThat(p.path("lastRun").path("outcome").asText()).as(p.toString()).isIn(List.of("succeeded", "stopped"));
      assertThat(p.path("uncommittedBatch").isNull()).as("no half-committed batch: " + p).isTrue();
    }
  }

  @Test
  void serveRefusesToExposeTheApiBeyondLoopbackWithoutAToken() throws Exception {
    Path config = dir.resolve("pipelines.yaml");
    Files.writeString(config, Files.readString(SluiceCliIT.examples().resolve("orders/pipelines.yaml")));
    Map<String, String> env = Map.of("SLUICE_WAREHOUSE", dir.resolve("warehouse").toUri().toString(),
        "SLUICE_API_TOKEN", "");
    SluiceProcess.Result r = SluiceProcess.run(dir, env, "serve", config.toString(), "--http", "0.0.0.0:0");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("Refusing to serve the HTTP API on 0.0.0.0:0 without a token", "SLUICE_API_TOKEN");
    assertThat(dir.resolve("warehouse")).as("nothing started").doesNotExist();
  }
}
