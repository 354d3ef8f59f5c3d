package dev.sluice.orchestration.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.SluiceSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each pipeline's last scheduled run beside its checkpoint ({@code <sink table>/_checkpoints/<pipeline>/runs/last.json}),
 * so that {@code sluice status}, run from another process, shows when the service last ran it and why it failed.
 */
public final class RunLog {
  private static final Logger LOG = LoggerFactory.getLogger(RunLog.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RunLog() {}

  static Location location(SluiceSession session, SluiceConfig config, PipelineConfig p) {
    return session.location(config.tableUri(p.sink().table()) + "/_checkpoints/" + p.name() + "/runs/last.json");
  }

  /** Records {@code r} as the pipeline's last run; a failure to write is logged, never thrown (the run itself is done). */
  static void write(SluiceSession session, SluiceConfig config, PipelineConfig p, RunRecord r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("pipeline", r.pipeline());
    n.put("cause", r.cause().name());
    n.put("attempt", r.attempt());
    n.put("start", r.start().toString());
    n.put("end", r.end().toString());
    n.put("outcome", r.outcome().name());
    r.error().ifPresent(e -> n.put("error", e));
    n.put("batches", r.batches());
    n.put("rows", r.rows());
    try {
      Location l = location(session, config, p);
      l.store().overwrite(l.key(), MAPPER.writeValueAsBytes(n));
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not record the last run of {}: {}", p.name(), e.toString());
    }
  }

  /** The pipeline's last recorded run, if the service ever ran it. */
  public static Optional<RunRecord> read(SluiceSession session, SluiceConfig config, PipelineConfig p) {
    Location l = location(session, config, p);
    if (l.store().status(l.key()).isEmpty()) {
      return Optional.empty();
    }
    try {
      JsonNode n = MAPPER.readTree(new String(l.store().read(l.key()), StandardCharsets.UTF_8));
      return Optional.of(new RunRecord(n.path("pipeline").asText(), RunRecord.Cause.valueOf(n.path("cause").asText()),
          n.path("attempt").asInt(), Instant.parse(n.path("start").asText()), Instant.parse(n.path("end").asText()),
          RunRecord.Outcome.valueOf(n.path("outcome").asText()),
          n.has("error") ? Optional.of(n.path("error").asText()) : Optional.empty(), n.path("batches").asLong(),
          n.path("rows").asLong()));
    } catch (IOException | RuntimeException e) {
      LOG.warn("The last-run record {} is unreadable: {}", l, e.toString());
      return Optional.empty();
    }
  }
}
