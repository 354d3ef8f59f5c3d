package dev.sluice.bench;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.PipelineGraph;
import dev.sluice.orchestration.PipelineRunner;
import dev.sluice.orchestration.Sessions;
import dev.sluice.orchestration.demo.OrdersGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The orders scenario at scale: {@code events} generated order events (shared/bench/ORDERS-FORMAT.md) through
 * {@code examples/orders/pipelines.yaml} (bronze → silver → gold, availableNow, its own
 * {@code max_files_per_trigger}), one JSON line per stage with wall time and rows/s, then the total.
 */
final class PipelineBench {
  private static final int LINES_PER_FILE = 20_000;

  private PipelineBench() {}

  static List<Map<String, Object>> run(Path dir, int events) {
    int files = Math.max(1, events / LINES_PER_FILE);
    OrdersGenerator generator = new OrdersGenerator(2026);
    long g0 = System.nanoTime();
    generator.writeOrders(dir.resolve("input"), 0, files, events / files);
    generator.writeCustomers(dir.resolve("customers"), 10_000);
    long generateMs = (System.nanoTime() - g0) / 1_000_000;
    SluiceConfig config = ConfigLoader.load(Checkout.root().resolve("examples/orders/pipelines.yaml"), Map.of(
        "ORDERS_INPUT", dir.resolve("input").toString(),
        "CUSTOMERS_INPUT", dir.resolve("customers").toString(),
        "SLUICE_WAREHOUSE", dir.resolve("warehouse").toUri().toString()));
    List<Map<String, Object>> out = new ArrayList<>();
    long total = 0;
    try (SluiceSession session = Sessions.forConfig(config)) {
      for (PipelineConfig p : PipelineGraph.ordered(config, List.of())) {
        long t0 = System.nanoTime();
        PipelineRunner.RunResult r = PipelineRunner.runAvailableNow(session, config, List.of(p.name())).stream()
            .filter(x -> x.pipeline().equals(p.name())).findFirst().orElseThrow();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        total += ms;
        if (!r.succeeded()) {
          throw new IllegalStateException("Pipeline " + p.name() + " failed", r.failure().orElse(null));
        }
        long rowsIn = r.progress().stream().mapToLong(QueryProgress::numInputRows).sum();
        long written = r.progress().stream().mapToLong(x -> x.observedMetrics().getOrDefault("ledger.written", 0L))
            .sum();
        Map<String, Object> stage = Json.object();
        stage.put("benchmark", "orders_pipeline_stage");
        stage.put("pipeline", p.name());
        stage.put("layer", p.layer().name().toLowerCase(java.util.Locale.ROOT));
        stage.put("batches", r.progress().size());
        stage.put("rows_in", rowsIn);
        stage.put("rows_written", written);
        stage.put("wall_ms", ms);
        stage.put("rows_per_second", Math.round(rowsIn * 1000.0 / Math.max(1, ms)));
        out.add(stage);
      }
    }
    Map<String, Object> sum = Json.object();
    sum.put("benchmark", "orders_pipeline_total");
    sum.put("events", (long) files * (events / files));
    sum.put("files", files);
    sum.put("max_files_per_trigger", config.defaults().maxFilesPerTrigger().orElse(-1));
    sum.put("generate_ms", generateMs);
    sum.put("wall_ms", total);
    sum.put("events_per_second", Math.round(events * 1000.0 / Math.max(1, total)));
    out.add(sum);
    return out;
  }
}
