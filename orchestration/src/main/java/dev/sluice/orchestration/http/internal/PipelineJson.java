package dev.sluice.orchestration.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.ScheduleConfig;
import dev.sluice.config.TriggerConfig;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.orchestration.PipelineGraph;
import dev.sluice.orchestration.http.ServiceView;
import dev.sluice.orchestration.service.RunRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The API's JSON for pipelines: the list entry, the detailed view with the recent batches, and run records.
 * Times are ISO-8601 UTC; absent values are null, never left out, so clients see one shape.
 */
final class PipelineJson {
  static final ObjectMapper JSON = new ObjectMapper();

  private final ServiceView service;
  private final BatchLog batches;
  private final Backlogs backlogs;

  PipelineJson(ServiceView service, BatchLog batches, Backlogs backlogs) {
    this.service = service;
    this.batches = batches;
    this.backlogs = backlogs;
  }

  /** {@code GET /api/pipelines}: every pipeline, upstream first. */
  ArrayNode list() {
    ArrayNode out = JSON.createArrayNode();
    for (PipelineConfig p : PipelineGraph.ordered(service.config(), List.of())) {
      out.add(summary(p));
    }
    return out;
  }

  /**
   * One pipeline's name, layer, table, schedule, trigger, upstreams, state ({@code running}, {@code paused}, the
   * last run's outcome, or {@code idle} before any run), last run and next fire.
   */
  ObjectNode summary(PipelineConfig p) {
    ObjectNode o = JSON.createObjectNode();
    o.put("name", p.name());
    o.put("layer", p.layer().name().toLowerCase(Locale.ROOT));
    o.put("table", p.sink().table());
    o.put("schedule", p.schedule().map(PipelineJson::schedule).orElse(null));
    o.put("trigger", trigger(p.trigger()));
    ArrayNode up = o.putArray("upstream");
    PipelineGraph.upstream(p).forEach(up::add);
    ArrayNode after = o.putArray("after");
    p.after().forEach(after::add);
    boolean running = service.running(p.name());
    boolean paused = service.paused(p.name());
    Optional<RunRecord> last = service.lastRun(p.name());
    o.put("state", running ? "running" : paused ? "paused"
        : last.map(r -> r.outcome().name().toLowerCase(Locale.ROOT)).orElse("idle"));
    o.put("running", running);
    o.put("paused", paused);
    o.set("lastRun", last.map(PipelineJson::run).orElse(null));
    o.put("nextFire", service.nextFire(p.name()).map(Instant::toString).orElse(null));
    return o;
  }

  /**
   * {@code GET /api/pipelines/{name}}: the summary plus the last batch's progress (Spark's shape), its ledger, the
   * ledger summed over the recent batches, watermark and lag, state operators, backlog and the recent batches.
   */
  ObjectNode detail(PipelineConfig p) {
    ObjectNode o = summary(p);
    QueryProgress last = batches.last(p.name()).orElse(null);
    o.set("lastProgress", last == null ? null : tree(last.json()));
    o.set("ledger", last == null ? null : JSON.valueToTree(Batches.ledger(last)));
    List<QueryProgress> recent = batches.recent(p.name());
    ObjectNode total = JSON.createObjectNode();
    for (QueryProgress b : recent) {
      Batches.ledger(b).forEach((k, v) -> total.put(k, total.path(k).asLong(0) + v));
    }
    o.set("recentLedger", total);
    Instant watermark = last == null ? null : Batches.watermark(last);
    o.put("watermark", watermark == null ? null : watermark.toString());
    if (last != null && Batches.watermarkLagSeconds(last).isPresent()) {
      o.put("watermarkLagSeconds", Batches.watermarkLagSeconds(last).getAsDouble());
    } else {
      o.putNull("watermarkLagSeconds");
    }
    o.set("stateOperators", last == null ? JSON.createArrayNode() : JSON.valueToTree(last.stateOperators()));
    Backlogs.Backlog b = backlogs.of(p);
    ObjectNode backlog = o.putObject("backlog");
    putKnown(backlog, "files", b.files());
    putKnown(backlog, "bytes", b.bytes());
    putKnown(backlog, "commits", b.commits());
    putKnown(backlog, "offsets", b.offsets());
    if (b.problem() != null) {
      backlog.put("problem", b.problem());
    }
    o.put("misfires", service.misfires(p.name()));
    ArrayNode rows = o.putArray("recentBatches");
    recent.forEach(r -> rows.add(batch(r)));
    return o;
  }

  /** {@code GET /api/pipelines/{name}/runs}: newest first, at most {@code limit}. */
  ArrayNode runs(PipelineConfig p, int limit) {
    List<RunRecord> all = service.runs(p.name());
    ArrayNode out = JSON.createArrayNode();
    for (int i = all.size() - 1; i >= 0 && out.size() < limit; i--) {
      out.add(run(all.get(i)));
    }
    return out;
  }

  /** One batch as the dashboard charts it. */
  private static ObjectNode batch(QueryProgress p) {
    ObjectNode o = JSON.createObjectNode();
    o.put("batchId", p.batchId());
    o.put("timestamp", p.timestamp());
    o.put("runId", p.runId());
    o.put("durationMs", p.batchDuration());
    o.put("inputRows", p.numInputRows());
    o.put("rowsPerSecond", p.processedRowsPerSecond());
    if (Batches.watermarkLagSeconds(p).isPresent()) {
      o.put("watermarkLagSeconds", Batches.watermarkLagSeconds(p).getAsDouble());
    } else {
      o.putNull("watermarkLagSeconds");
    }
    o.put("stateRows", Batches.stateRows(p));
    o.set("ledger", JSON.valueToTree(Batches.ledger(p)));
    return o;
  }

  static ObjectNode run(RunRecord r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("pipeline", r.pipeline());
    o.put("cause", r.cause().name().toLowerCase(Locale.ROOT));
    o.put("attempt", r.attempt());
    o.put("start", r.start().toString());
    o.put("end", r.end().toString());
    o.put("durationMs", r.duration().toMillis());
    o.put("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
    o.put("error", r.error().orElse(null));
    o.put("batches", r.batches());
    o.put("rows", r.rows());
    return o;
  }

  static String schedule(ScheduleConfig s) {
    return s instanceof ScheduleConfig.Every e ? "every " + e.interval().text()
        : "cron " + ((ScheduleConfig.Cron) s).expression();
  }

  static String trigger(TriggerConfig t) {
    return t instanceof TriggerConfig.ProcessingTime pt ? "processing_time " + pt.interval().text()
        : t instanceof TriggerConfig.Once ? "once" : "available_now";
  }

  private static void putKnown(ObjectNode o, String field, long v) {
    if (v < 0) {
      o.putNull(field);
    } else {
      o.put(field, v);
    }
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> error(String message) {
    return Map.of("error", message);
  }
}
