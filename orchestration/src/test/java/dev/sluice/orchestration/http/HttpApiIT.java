package dev.sluice.orchestration.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.MetricType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every endpoint of the JSON API over a real service that ran the orders chain, fired through the API. */
class HttpApiIT {
  @TempDir static Path dir;
  static HttpFixture f;

  @BeforeAll
  static void runTheChain() {
    f = HttpFixture.loopback(dir);
    f.runChain();
  }

  @AfterAll
  static void stop() {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void listsEveryPipelineUpstreamFirstWithItsStateAndLastRun() {
    HttpFixture.Response r = f.get("/api/pipelines");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.headers().get("content-type").get(0)).startsWith("application/json");
    JsonNode list = r.json();
    assertThat(names(list)).containsExactly("orders_bronze", "orders_silver", "revenue_gold");
    for (JsonNode p : list) {
      assertThat(p.fieldNames()).toIterable().contains("name", "layer", "table", "schedule", "trigger", "upstream",
          "after", "state", "running", "paused", "lastRun", "nextFire");
      assertThat(p.path("state").asText()).isEqualTo("succeeded");
      assertThat(p.path("lastRun").path("outcome").asText()).isEqualTo("succeeded");
      assertThat(Instant.parse(p.path("lastRun").path("end").asText())).isBeforeOrEqualTo(Instant.now());
      assertThat(p.path("nextFire").isNull()).as("no schedule, nothing pending: %s", p).isTrue();
    }
    assertThat(list.get(0).path("layer").asText()).isEqualTo("bronze");
    assertThat(list.get(0).path("table").asText()).isEqualTo("bronze/orders");
    assertThat(list.get(0).path("trigger").asText()).isEqualTo("available_now");
    assertThat(list.get(0).path("lastRun").path("cause").asText()).isEqualTo("manual");
    assertThat(list.get(1).path("upstream").get(0).asText()).isEqualTo("orders_bronze");
    assertThat(list.get(1).path("lastRun").path("cause").asText()).isEqualTo("upstream");
  }

  @Test
  void aPipelineShowsItsLastProgressLedgerWatermarkStateBacklogAndRecentBatches() {
    JsonNode bronze = f.get("/api/pipelines/orders_bronze").json();
    assertThat(bronze.path("recentBatches").size()).as("one file per batch").isEqualTo(HttpFixture.FILES);
    assertThat(bronze.path("lastProgress").path("batchId").asLong()).isEqualTo(HttpFixture.FILES - 1);
    assertThat(bronze.path("lastProgress").path("name").asText()).isEqualTo("orders_bronze");
    assertThat(bronze.path("ledger").path("in").asLong()).isEqualTo(HttpFixture.LINES);
    assertThat(bronze.path("recentLedger").path("in").asLong()).isEqualTo(HttpFixture.FILES * HttpFixture.LINES);
    assertThat(bronze.path("backlog").path("files").asLong()).as("all landing files read").isZero();
    assertThat(bronze.path("backlog").path("bytes").asLong()).isZero();
    assertThat(bronze.path("backlog").path("commits").isNull()).isTrue();
    JsonNode batch = bronze.path("recentBatches").get(0);
    assertThat(batch.fieldNames()).toIterable().containsExactlyInAnyOrder("batchId", "timestamp", "runId",
        "durationMs", "inputRows", "rowsPerSecond", "watermarkLagSeconds", "stateRows", "ledger");
    assertThat(batch.path("inputRows").asLong()).isEqualTo(HttpFixture.LINES);

    JsonNode silver = f.get("/api/pipelines/orders_silver").json();
    assertThat(silver.path("watermark").asText()).as("dedup keeps a watermark").isNotEmpty();
    assertThat(Instant.parse(silver.path("watermark").asText())).isBefore(Instant.now());
    assertThat(silver.path("watermarkLagSeconds").asDouble()).isGreaterThan(0);
    assertThat(silver.path("stateOperators").size()).isPositive();
    assertThat(silver.path("stateOperators").get(0).path("numRowsTotal").asLong()).isPositive();
    assertThat(silver.path("backlog").path("commits").asLong()).as("read up to bronze's last commit").isZero();
    assertThat(silver.path("backlog").path("files").isNull()).isTrue();
    long silverIn = 0;
    for (JsonNode b : silver.path("recentBatches")) {
      silverIn += b.path("ledger").path("in").asLong();
    }
    assertThat(silverIn).isEqualTo(silver.path("recentLedger").path("in").asLong()).isPositive();
  }

  @Test
  void runsAreNewestFirstAndLimited() {
    JsonNode runs = f.get("/api/pipelines/orders_silver/runs").json();
    assertThat(runs.isArray()).isTrue();
    assertThat(runs.size()).isEqualTo(1);
    JsonNode r = runs.get(0);
    assertThat(r.fieldNames()).toIterable().containsExactlyInAnyOrder("pipeline", "cause", "attempt", "start", "end",
        "durationMs", "outcome", "error", "batches", "rows");
    assertThat(r.path("pipeline").asText()).isEqualTo("orders_silver");
    assertThat(r.path("outcome").asText()).isEqualTo("succeeded");
    assertThat(r.path("error").isNull()).isTrue();
    assertThat(r.path("rows").asLong()).isEqualTo(HttpFixture.FILES * HttpFixture.LINES);
    assertThat(f.get("/api/pipelines/orders_silver/runs?limit=0").status()).isEqualTo(400);
    assertThat(f.get("/api/pipelines/orders_silver/runs?limit=1").json().size()).isEqualTo(1);
  }

  @Test
  void pauseHoldsFiresAndResumeReleasesThem() {
    assertThat(f.post("/api/pipelines/revenue_gold/pause").json().path("paused").asBoolean()).isTrue();
    JsonNode gold = f.get("/api/pipelines/revenue_gold").json();
    assertThat(gold.path("state").asText()).isEqualTo("paused");
    assertThat(gold.path("paused").asBoolean()).isTrue();
    HttpFixture.Response refused = f.post("/api/pipelines/revenue_gold/run");
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.json().path("error").asText()).contains("paused", "resume");

    assertThat(f.post("/api/pipelines/revenue_gold/resume").json().path("paused").asBoolean()).isFalse();
    assertThat(f.get("/api/pipelines/revenue_gold").json().path("state").asText()).isEqualTo("succeeded");
    assertThat(f.post("/api/pipelines/revenue_gold/run").status()).isEqualTo(202);
    f.awaitJson("/api/pipelines/revenue_gold/runs", java.time.Duration.ofSeconds(20),
        runs -> runs.size() == 2 && runs.get(0).path("cause").asText().equals("manual"));
  }

  @Test
  void aTableShowsVersionFilesBytesAndHistory() {
    JsonNode t = f.get("/api/tables/bronze/orders").json();
    assertThat(t.path("name").asText()).isEqualTo("bronze/orders");
    assertThat(t.path("pipeline").asText()).isEqualTo("orders_bronze");
    assertThat(t.path("exists").asBoolean()).isTrue();
    assertThat(t.path("version").asLong()).isGreaterThanOrEqualTo(HttpFixture.FILES - 1);
    assertThat(t.path("files").asLong()).isPositive();
    assertThat(t.path("bytes").asLong()).isPositive();
    assertThat(t.path("rows").asLong()).isEqualTo(HttpFixture.FILES * HttpFixture.LINES);
    JsonNode h = t.path("history");
    assertThat(h.size()).isPositive();
    assertThat(h.get(0).path("version").asLong()).isEqualTo(t.path("version").asLong());
    assertThat(h.get(0).path("operationMetrics").path("ledger.rowsIn").asText()).isNotEmpty();

    HttpFixture.Response unknown = f.get("/api/tables/no/such");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().path("error").asText()).contains("no/such", "bronze/orders");
  }

  @Test
  void anUnknownPipelineIs404NamingTheKnownOnes() {
    for (String path : List.of("/api/pipelines/nope", "/api/pipelines/nope/runs")) {
      HttpFixture.Response r = f.get(path);
      assertThat(r.status()).as(path).isEqualTo(404);
      assertThat(r.json().path("error").asText()).contains("nope", "orders_bronze");
    }
    assertThat(f.post("/api/pipelines/nope/run").status()).isEqualTo(404);
  }

  @Test
  void probesAnswer() {
    HttpFixture.Response health = f.get("/healthz");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().path("status").asText()).isEqualTo("ok");
    HttpFixture.Response ready = f.get("/readyz");
    assertThat(ready.status()).isEqualTo(200);
    assertThat(ready.json().path("status").asText()).isEqualTo("ready");
  }

  @Test
  void theDashboardAndItsChartLibraryAreServedFromTheJar() {
    HttpFixture.Response page = f.get("/");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("/assets/uPlot.iife.min.js", "/dashboard.js").doesNotContain("https://");
    assertThat(f.get("/assets/uPlot.iife.min.js").body()).contains("uPlot");
    assertThat(f.get("/assets/uPlot.LICENSE").body()).contains("MIT");
    assertThat(f.get("/dashboard.js").status()).isEqualTo(200);
  }

  @Test
  void metricsParseAsPrometheusTextAndCountTheLedgerBatchesStateAndBacklog() {
    HttpFixture.Response r = f.get("/metrics");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.headers().get("content-type").get(0)).startsWith("text/plain");
    PrometheusText m = PrometheusText.parse(r.body());
    Map<String, String> bronze = Map.of("pipeline", "orders_bronze");

    assertThat(m.metric("sluice_pipeline_rows_total", Counter.class, Map.of("pipeline", "orders_bronze", "outcome",
        "in")).getValue()).isEqualTo(HttpFixture.FILES * HttpFixture.LINES);
    JsonNode silver = f.get("/api/pipelines/orders_silver").json();
    silver.path("recentLedger").fields().forEachRemaining(e -> assertThat(m.metric("sluice_pipeline_rows_total",
        Counter.class, Map.of("pipeline", "orders_silver", "outcome", e.getKey())).getValue())
        .as(e.getKey()).isEqualTo(e.getValue().asDouble()));
    assertThat(m.metric("sluice_pipeline_batches_total", Counter.class, bronze).getValue())
        .isEqualTo(HttpFixture.FILES);

    Histogram duration = m.metric("sluice_pipeline_batch_duration_seconds", Histogram.class, bronze);
    assertThat(duration.getSampleCount()).isEqualTo(HttpFixture.FILES);
    assertThat(duration.getSampleSum()).isPositive();
    assertThat(duration.getBuckets()).extracting(Histogram.Bucket::getUpperBound).contains(0.1, 1.0, 60.0,
        Double.POSITIVE_INFINITY);
    assertThat(m.family("sluice_pipeline_batch_duration_seconds").get().getType()).isEqualTo(MetricType.HISTOGRAM);

    assertThat(m.metric("sluice_pipeline_backlog_files", Gauge.class, bronze).getValue()).isZero();
    assertThat(m.metric("sluice_pipeline_backlog_bytes", Gauge.class, bronze).getValue()).isZero();
    assertThat(m.metric("sluice_pipeline_backlog_commits", Gauge.class, Map.of("pipeline", "orders_silver"))
        .getValue()).isZero();
    assertThat(m.metric("sluice_pipeline_watermark_lag_seconds", Gauge.class, Map.of("pipeline", "orders_silver"))
        .getValue()).isEqualTo(silver.path("watermarkLagSeconds").asDouble());
    String operator = silver.path("stateOperators").get(0).path("operatorName").asText();
    assertThat(m.metric("sluice_pipeline_state_rows", Gauge.class, Map.of("pipeline", "orders_silver", "operator",
        operator)).getValue()).isEqualTo(silver.path("stateOperators").get(0).path("numRowsTotal").asDouble());
    assertThat(m.metric("sluice_pipeline_state_memory_bytes", Gauge.class, Map.of("pipeline", "orders_silver",
        "operator", operator)).getValue()).isPositive();

    assertThat(m.metric("sluice_pipeline_runs_total", Counter.class, Map.of("pipeline", "orders_bronze", "outcome",
        "succeeded")).getValue()).isEqualTo(1);
    assertThat(m.metric("sluice_pipeline_run_failures_total", Counter.class, bronze).getValue()).isZero();
    assertThat(m.metric("sluice_pipeline_misfires_total", Counter.class, bronze).getValue()).isZero();
    assertThat(m.metric("sluice_pipeline_paused", Gauge.class, bronze).getValue()).isZero();
    assertThat(m.family("jvm_memory_used_bytes")).isPresent();
    assertThat(m.family("jvm_threads_live_threads")).isPresent();
    assertThat(m.family("process_uptime_seconds")).isPresent();
  }

  static List<String> names(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(p -> out.add(p.path("name").asText()));
    return out;
  }
}
