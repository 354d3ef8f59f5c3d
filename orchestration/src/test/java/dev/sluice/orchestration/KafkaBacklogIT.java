package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ConfigLoader;
import dev.sluice.ingestion.KraftBroker;
import dev.sluice.orchestration.cli.SluiceCli;
import dev.sluice.orchestration.http.HttpOptions;
import dev.sluice.orchestration.http.ServiceView;
import dev.sluice.orchestration.http.SluiceHttpServer;
import dev.sluice.orchestration.service.RetryPolicy;
import dev.sluice.orchestration.service.ServiceOptions;
import dev.sluice.orchestration.service.SluiceService;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backlog of a bronze pipeline reading Kafka, against a real in-process broker: offsets behind the topics' end
 * offsets in {@code sluice diagnose}, {@code sluice run}'s progress and the HTTP API and metrics, before a run, after
 * it and after more records; and, with brokers that cannot be reached, a backlog that says so instead of failing.
 */
class KafkaBacklogIT {
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  private static String pipeline(String name, String servers, String topic) {
    return KafkaBronzeYaml.pipeline(name, servers, topic, 50);
  }

  private String yaml(String... pipelines) {
    return KafkaBronzeYaml.config(dir, pipelines);
  }

  private void send(String topic, int from, int to) {
    broker.send(topic, null, null, IntStream.range(from, to).mapToObj(i -> "{\"id\":" + i + "}").toList());
  }

  /** A port nothing listens on. */
  private static String deadBroker() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return "127.0.0.1:" + s.getLocalPort();
    }
  }

  private record Out(int exit, String out, String err) {
    String all() {
      return out + err;
    }
  }

  private static Out cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = SluiceCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), false);
    return new Out(exit, out.toString(), err.toString());
  }

  @Test
  void diagnoseAndRunShowOffsetsBehindLatest() throws Exception {
    String topic = broker.newTopic("backlog", 3);
    send(topic, 0, 300);
    Path config = Files.writeString(dir.resolve("pipelines.yaml"), yaml(pipeline("events", broker.bootstrap(), topic)));

    Out before = cli("diagnose", config.toString());
    assertThat(before.all()).as(before.toString()).contains("backlog 300 offsets behind latest");
    Out run = cli("run", config.toString(), "--available-now");
    assertThat(run.exit()).as(run.toString()).isZero();
    assertThat(run.all()).contains("events: 300 offsets to process");
    Out after = cli("diagnose", config.toString());
    assertThat(after.all()).as(after.toString()).contains("backlog 0 offsets behind latest");
    send(topic, 300, 340);
    Out more = cli("diagnose", config.toString());
    assertThat(more.all()).as(more.toString()).contains("backlog 40 offsets behind latest");
  }

  @Test
  void anUnreachableBrokerMakesTheBacklogUnknownAndSaysWhy() throws Exception {
    String dead = deadBroker();
    Path config = Files.writeString(dir.resolve("pipelines.yaml"), yaml(pipeline("lost", dead, "nowhere")));
    long start = System.nanoTime();
    Out r = cli("diagnose", config.toString());
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("bounded by the backlog's timeout")
        .isLessThan(Duration.ofSeconds(20));
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);   // a warning, not a failure of diagnose itself
    assertThat(r.all()).contains("backlog unknown: the brokers " + dead + " did not answer within 3 s");
  }

  @Test
  void theHttpApiAndMetricsShowTheBacklogAndAnUnreachableBroker() throws Exception {
    String topic = broker.newTopic("http", 2);
    send(topic, 0, 120);
    String dead = deadBroker();
    SluiceService service = SluiceService.start(ConfigLoader.parse(yaml(pipeline("events", broker.bootstrap(), topic),
            pipeline("lost", dead, "nowhere")), "pipelines.yaml", Map.of()),
        ServiceOptions.defaults().withRetry(RetryPolicy.none()).withStopTimeout(Duration.ofSeconds(20)));
    try (SluiceHttpServer server = SluiceHttpServer.start(ServiceView.of(service),
        new HttpOptions("127.0.0.1", 0, Optional.empty()))) {
      Api api = new Api(server);
      JsonNode backlog = api.get("/api/pipelines/events").path("backlog");
      assertThat(backlog.path("offsets").asLong()).isEqualTo(120);
      assertThat(backlog.path("files").isNull()).isTrue();
      assertThat(backlog.has("problem")).isFalse();
      JsonNode lost = api.get("/api/pipelines/lost").path("backlog");
      assertThat(lost.path("offsets").isNull()).isTrue();
      assertThat(lost.path("problem").asText()).contains("the brokers " + dead + " did not answer within 3 s");
      assertThat(api.text("/metrics")).contains("sluice_pipeline_backlog_offsets{pipeline=\"events\"} 120.0");

      assertThat(api.post("/api/pipelines/events/run")).isEqualTo(202);
      // the backlog is cached for a few seconds: wait for the run and a fresh reading
      api.await("/api/pipelines/events", p -> p.path("lastRun").path("outcome").asText().equals("succeeded")
          && p.path("backlog").path("offsets").asLong(-1) == 0);
    } finally {
      service.stop();
    }
  }

  /** A java.net.http client of the API. */
  private static final class Api {
    private final SluiceHttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();

    Api(SluiceHttpServer server) {
      this.server = server;
    }

    String text(String path) throws Exception {
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.uri().resolve(path))
          .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      return r.body();
    }

    JsonNode get(String path) throws Exception {
      return JSON.readTree(text(path));
    }

    int post(String path) throws Exception {
      return client.send(HttpRequest.newBuilder(server.uri().resolve(path)).timeout(Duration.ofSeconds(30))
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    void await(String path, Predicate<JsonNode> done) throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      JsonNode last = null;
      while (System.nanoTime() < deadline) {
        last = get(path);
        if (done.test(last)) {
          return;
        }
        Thread.sleep(200);
      }
      throw new AssertionError("Timed out waiting on " + path + "; last: " + last);
    }
  }
}
