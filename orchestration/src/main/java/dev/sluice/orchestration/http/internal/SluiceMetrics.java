package dev.sluice.orchestration.http.internal;

import dev.sluice.config.PipelineConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.orchestration.http.ServiceView;
import dev.sluice.orchestration.service.RunRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The service's Prometheus metrics, through Micrometer. Per pipeline: the row ledger as counters
 * ({@code sluice_pipeline_rows_total{pipeline,outcome}}), batches, batch duration (a histogram in seconds),
 * backlog (files, bytes, upstream commits, Kafka offsets), watermark lag, state rows and bytes per operator, runs by outcome,
 * run failures, misfires, whether it runs or is paused; plus the JVM's metrics. Names follow Prometheus
 * conventions (base units, {@code _total} counters).
 */
public final class SluiceMetrics implements AutoCloseable {
  /** Batch-duration histogram buckets: from sub-second batches to long backfills. */
  private static final Duration[] BUCKETS = {Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100),
      Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
      Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
      Duration.ofMinutes(5)};

  /** The latest per-batch values that gauges read (a gauge is sampled at scrape time). */
  private static final class Latest {
    volatile double watermarkLagSeconds = Double.NaN;
    final Map<String, QueryProgress.StateOperatorProgress> operators = new ConcurrentHashMap<>();
  }

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, Latest> latest = new ConcurrentHashMap<>();
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public SluiceMetrics(ServiceView service, BatchLog batches, Backlogs backlogs) {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    for (PipelineConfig p : service.config().pipelines()) {
      register(service, backlogs, p);
    }
    batches.listen(this::batch);
    service.onRun(this::run);
  }

  private void register(ServiceView service, Backlogs backlogs, PipelineConfig p) {
    String name = p.name();
    Latest l = new Latest();
    latest.put(name, l);
    Gauge.builder("sluice.pipeline.backlog.files", () -> orNaN(backlogs.of(p).files())).tag("pipeline", name)
        .description("Landing files the pipeline has not read yet (files sources)").register(registry);
    Gauge.builder("sluice.pipeline.backlog", () -> orNaN(backlogs.of(p).bytes())).tag("pipeline", name)
        .baseUnit("bytes").description("Bytes of the landing files not read yet (files sources)").register(registry);
    Gauge.builder("sluice.pipeline.backlog.commits", () -> orNaN(backlogs.of(p).commits())).tag("pipeline", name)
        .description("Commits of the upstream table not read yet (table sources)").register(registry);
    Gauge.builder("sluice.pipeline.backlog.offsets", () -> orNaN(backlogs.of(p).offsets())).tag("pipeline", name)
        .description("Kafka offsets behind the topics' end offsets, summed over partitions (Kafka sources)")
        .register(registry);
    Gauge.builder("sluice.pipeline.watermark.lag", () -> l.watermarkLagSeconds).tag("pipeline", name)
        .baseUnit("seconds").description("How far the last batch's watermark trailed the batch's time")
        .register(registry);
    Gauge.builder("sluice.pipeline.running", () -> service.running(name) ? 1 : 0).tag("pipeline", name)
        .description("1 while a run of the pipeline is in progress").register(registry);
    Gauge.builder("sluice.pipeline.paused", () -> service.paused(name) ? 1 : 0).tag("pipeline", name)
        .description("1 while the pipeline is paused").register(registry);
    FunctionCounter.builder("sluice.pipeline.misfires", service, s -> s.misfires(name)).tag("pipeline", name)
        .description("Fires of the pipeline's triggers that came late (e.g. while the previous run still ran)")
        .register(registry);
    // zero-valued series from the start, so that rate() and alerts see them before the first failure
    runs(name, RunRecord.Outcome.FAILED);
    failures(name);
  }

  private void batch(String pipeline, QueryProgress p) {
    Counter.builder("sluice.pipeline.batches").tag("pipeline", pipeline).description("Micro-batches committed")
        .register(registry).increment();
    Timer.builder("sluice.pipeline.batch.duration").tag("pipeline", pipeline)
        .description("Wall time of a micro-batch").serviceLevelObjectives(BUCKETS).register(registry)
        .record(Duration.ofMillis(p.batchDuration()));
    Batches.ledger(p).forEach((outcome, rows) -> Counter.builder("sluice.pipeline.rows").tag("pipeline", pipeline)
        .tag("outcome", outcome).description("Rows of the row ledger: in = written + superseded + unchanged"
            + " + deduplicated + late + quarantined + filtered + dropped")
        .register(registry).increment(rows));
    Latest l = latest.get(pipeline);
    l.watermarkLagSeconds = Batches.watermarkLagSeconds(p).orElse(Double.NaN);
    for (QueryProgress.StateOperatorProgress op : p.stateOperators()) {
      if (l.operators.put(op.operatorName(), op) == null) {
        String operator = op.operatorName();
        Gauge.builder("sluice.pipeline.state.rows", () -> l.operators.get(operator).numRowsTotal())
            .tags("pipeline", pipeline, "operator", operator).description("Rows the operator keeps in state")
            .register(registry);
        Gauge.builder("sluice.pipeline.state.memory", () -> l.operators.get(operator).memoryUsedBytes())
            .tags("pipeline", pipeline, "operator", operator).baseUnit("bytes")
            .description("Memory the operator's state uses").register(registry);
      }
    }
  }

  private void run(RunRecord r) {
    runs(r.pipeline(), r.outcome()).increment();
    if (r.outcome() == RunRecord.Outcome.FAILED) {
      failures(r.pipeline()).increment();
    }
  }

  private Counter runs(String pipeline, RunRecord.Outcome outcome) {
    return Counter.builder("sluice.pipeline.runs").tags("pipeline", pipeline, "outcome",
        outcome.name().toLowerCase(Locale.ROOT)).description("Runs of the pipeline by how they ended")
        .register(registry);
  }

  private Counter failures(String pipeline) {
    return Counter.builder("sluice.pipeline.run.failures").tag("pipeline", pipeline)
        .description("Runs of the pipeline that failed (each attempt counts)").register(registry);
  }

  private static double orNaN(long v) {
    return v < 0 ? Double.NaN : v;
  }

  /** The Prometheus text format (version 0.0.4). */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
