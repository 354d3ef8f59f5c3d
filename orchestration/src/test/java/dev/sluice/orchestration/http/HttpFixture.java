package dev.sluice.orchestration.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.orchestration.demo.OrdersGenerator;
import dev.sluice.orchestration.service.RetryPolicy;
import dev.sluice.orchestration.service.ServiceOptions;
import dev.sluice.orchestration.service.SluiceService;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The orders demo (bronze → silver with dedup and a watermark → gold with a windowed aggregate) served by a
 * real service and HTTP server, with a java.net.http client for the API. Bronze has no schedule: {@link #runChain}
 * fires it through the API and waits for gold, so every pipeline has run and reported batches.
 */
final class HttpFixture implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  static final int FILES = 4;
  static final int LINES = 100;

  final Path dir;
  final SluiceService service;
  final SluiceHttpServer server;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  HttpFixture(Path dir, HttpOptions options) {
    this.dir = dir;
    OrdersGenerator generator = new OrdersGenerator(5);
    generator.writeOrders(dir.resolve("input"), 0, FILES, LINES);
    generator.writeCustomers(dir.resolve("customers"), 1_000);
    SluiceConfig config = ConfigLoader.parse(yaml(), "pipelines.yaml", Map.of(
        "ORDERS_INPUT", dir.resolve("input").toString(), "CUSTOMERS_INPUT", dir.resolve("customers").toString(),
        "SLUICE_WAREHOUSE", dir.resolve("warehouse").toUri().toString()));
    this.service = SluiceService.start(config, ServiceOptions.defaults().withRetry(RetryPolicy.none())
        .withStopTimeout(Duration.ofSeconds(20)));
    this.server = SluiceHttpServer.start(ServiceView.of(service), options);
  }

  static HttpFixture loopback(Path dir) {
    return new HttpFixture(dir, new HttpOptions("127.0.0.1", 0, Optional.empty()));
  }

  /** The demo's config with one file per batch, so that a run has several batches to chart. */
  private static String yaml() {
    try (InputStream in = HttpFixture.class.getResourceAsStream("/dev/sluice/orchestration/cli/orders/pipelines.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("max_files_per_trigger: 10", "max_files_per_trigger: 1");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Fires bronze through the API and waits until gold's run after it succeeded. */
  void runChain() {
    Response fired = post("/api/pipelines/orders_bronze/run");
    if (fired.status() != 202) {
      throw new AssertionError("fire now: " + fired);
    }
    awaitJson("/api/pipelines/revenue_gold", Duration.ofSeconds(90),
        p -> p.path("lastRun").path("outcome").asText().equals("succeeded") && !p.path("running").asBoolean());
  }

  record Response(int status, String body, Map<String, java.util.List<String>> headers) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("Not JSON (" + status + "): " + body, e);
      }
    }
  }

  Response get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET(), null);
  }

  Response get(String path, String authorization) {
    return send(HttpRequest.newBuilder(uri(path)).GET(), authorization);
  }

  Response post(String path) {
    return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()), null);
  }

  private URI uri(String path) {
    return server.uri().resolve(path);
  }

  private Response send(HttpRequest.Builder b, String authorization) {
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    try {
      HttpResponse<String> r = client.send(b.timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body(), r.headers().map());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  JsonNode awaitJson(String path, Duration timeout, Predicate<JsonNode> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    JsonNode last = null;
    while (System.nanoTime() < deadline) {
      Response r = get(path);
      if (r.status() == 200) {
        last = r.json();
        if (done.test(last)) {
          return last;
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("Timed out after " + timeout.toSeconds() + " s waiting on " + path + "; last: " + last);
  }

  @Override
  public void close() {
    server.close();
    service.stop();
  }
}
