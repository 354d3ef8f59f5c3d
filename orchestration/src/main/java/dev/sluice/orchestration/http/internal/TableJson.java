package dev.sluice.orchestration.http.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.DataFile;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /api/tables/{name}}: a table the config's pipelines write (a sink, a quarantine or late-rows
 * table) — its version, files, bytes, rows and recent history. Only the config's tables: the API reads no
 * other path.
 */
final class TableJson {
  static final int HISTORY = 20;

  private final SluiceSession session;
  private final SluiceConfig config;

  TableJson(SluiceSession session, SluiceConfig config) {
    this.session = session;
    this.config = config;
  }

  /** The table names the API serves, each with the pipeline that writes it. */
  Map<String, String> names() {
    Map<String, String> out = new LinkedHashMap<>();
    for (PipelineConfig p : config.pipelines()) {
      out.put(p.sink().table(), p.name());
      p.layer().sideTables(p.sink().table()).forEach(t -> out.putIfAbsent(t, p.name()));
    }
    return out;
  }

  /** Empty when the config writes no table of that name. */
  Optional<ObjectNode> of(String name) {
    String pipeline = names().get(name);
    if (pipeline == null) {
      return Optional.empty();
    }
    Table t = session.table(config.tableUri(name).toString());
    ObjectNode o = PipelineJson.JSON.createObjectNode();
    o.put("name", name);
    o.put("pipeline", pipeline);
    o.put("uri", t.uri().toString());
    boolean exists = t.exists();
    o.put("exists", exists);
    ArrayNode history = PipelineJson.JSON.createArrayNode();
    if (!exists) {
      o.putNull("version");
      o.putNull("timestamp");
      o.putNull("files");
      o.putNull("bytes");
      o.putNull("rows");
    } else {
      Snapshot s = t.latestSnapshot();
      o.put("version", s.version());
      o.put("timestamp", s.timestamp() == null ? null : s.timestamp().toString());
      o.put("files", s.files().size());
      o.put("bytes", s.files().stream().mapToLong(DataFile::size).sum());
      if (s.numRecords().isPresent()) {
        o.put("rows", s.numRecords().getAsLong());
      } else {
        o.putNull("rows");
      }
      for (HistoryEntry h : t.history(HISTORY)) {
        ObjectNode e = history.addObject();
        e.put("version", h.version());
        e.put("timestamp", h.timestamp() == null ? null : h.timestamp().toString());
        e.put("operation", h.operation());
        ObjectNode m = e.putObject("operationMetrics");
        new java.util.TreeMap<>(h.operationMetrics()).forEach(m::put);
      }
    }
    o.set("history", history);
    return Optional.of(o);
  }
}
