package dev.sluice.orchestration.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server bound to every interface: the API and /metrics need the bearer token; probes and page files do not. */
class HttpTokenIT {
  static final String TOKEN = "s3cret-token";
  @TempDir static Path dir;
  static HttpFixture f;

  @BeforeAll
  static void start() {
    f = new HttpFixture(dir, HttpOptions.of("0.0.0.0:0", Optional.of(TOKEN)));
  }

  @AfterAll
  static void stop() {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void withoutATokenTheApiAndMetricsAre401WithABearerChallenge() {
    for (String path : new String[] {"/api/pipelines", "/api/pipelines/orders_bronze", "/api/tables/bronze/orders",
        "/metrics"}) {
      HttpFixture.Response r = f.get(path);
      assertThat(r.status()).as(path).isEqualTo(401);
      assertThat(r.headers().get("www-authenticate")).as(path).containsExactly("Bearer realm=\"sluice\"");
      assertThat(r.json().path("error").asText()).contains("Authorization: Bearer", "SLUICE_API_TOKEN");
    }
    assertThat(f.post("/api/pipelines/orders_bronze/run").status()).isEqualTo(401);
    assertThat(f.service.lastRun("orders_bronze")).as("a refused fire runs nothing").isEmpty();
  }

  @Test
  void aWrongTokenIs401() {
    for (String auth : new String[] {"Bearer wrong", "Bearer " + TOKEN + "x", "Basic " + TOKEN, TOKEN}) {
      HttpFixture.Response r = f.get("/api/pipelines", auth);
      assertThat(r.status()).as(auth).isEqualTo(401);
    }
  }

  @Test
  void theRightTokenOpensTheApiAndMetrics() {
    assertThat(f.get("/api/pipelines", "Bearer " + TOKEN).status()).isEqualTo(200);
    assertThat(f.get("/metrics", "bearer " + TOKEN).status()).isEqualTo(200);
  }

  @Test
  void probesAndTheDashboardPageNeedNoToken() {
    assertThat(f.get("/healthz").status()).isEqualTo(200);
    assertThat(f.get("/readyz").status()).isEqualTo(200);
    assertThat(f.get("/").status()).isEqualTo(200);
  }

  @Test
  void aServerBeyondLoopbackWithoutATokenRefusesToStart() {
    assertThatThrownBy(() -> SluiceHttpServer.start(ServiceView.of(f.service),
        new HttpOptions("0.0.0.0", 0, Optional.empty())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Refusing to serve the HTTP API on 0.0.0.0:0 without a token")
        .hasMessageContaining("SLUICE_API_TOKEN");
  }

  @Test
  void loopbackServesWithoutAToken() {
    try (SluiceHttpServer open = SluiceHttpServer.start(ServiceView.of(f.service),
        new HttpOptions("127.0.0.1", 0, Optional.empty()))) {
      HttpFixture.Response r = get(open.uri().resolve("/api/pipelines").toString());
      assertThat(r.status()).isEqualTo(200);
    }
  }

  private static HttpFixture.Response get(String uri) {
    try {
      java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create(uri)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      return new HttpFixture.Response(r.statusCode(), r.body(), r.headers().map());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
