package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.checkpoint.CommitEntry;
import dev.sluice.ingestion.internal.checkpoint.OffsetEntry;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Where a pipeline stands, from its checkpoint and its sink table: the last committed batch (id, time,
 * watermark), a batch planned but not committed (re-run on the next start), the table's latest version
 * and its last commit's ledger, and the state the checkpoint keeps. Fields are null when not known yet; times
 * are ISO-8601 UTC.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
record PipelineStatus(
    String pipeline,
    String layer,
    String table,
    String tableUri,
    Long lastBatch,
    String lastBatchTime,
    String watermark,
    Long uncommittedBatch,
    Long tableVersion,
    String tableVersionTime,
    Long rowsIn,
    Map<String, Long> ledger,
    State state,
    LastRun lastRun) {

  /** The last run the service ({@code sluice serve}) recorded: when, how it ended, the error, the attempt. */
  record LastRun(String start, String end, String cause, String outcome, int attempt, String error, String node) {}

  /** The state stores of the checkpoint's stateful operators: how many, the newest version, their files' size. */
  record State(int operators, long version, long files, long bytes, Map<String, Long> rows) {}

  static PipelineStatus read(SluiceSession session, SluiceConfig config, PipelineConfig p) {
    return read(session, config, p, dev.sluice.orchestration.service.RunLog.read(session, config, p));
  }

  /** With the pipeline's last service run as {@code lastRun} (from the cluster's history when it is on). */
  static PipelineStatus read(SluiceSession session, SluiceConfig config, PipelineConfig p,
      java.util.Optional<dev.sluice.orchestration.service.RunRecord> lastRun) {
    QueryCheckpoint checkpoint = new QueryCheckpoint(session.location(Pipelines.checkpointUri(config, p)));
    OptionalLong committed = checkpoint.latestCommitBatch();
    OptionalLong planned = checkpoint.latestOffsetsBatch();
    Long lastBatch = null;
    Instant batchTime = null;
    Instant watermark = null;
    if (committed.isPresent()) {
      lastBatch = committed.getAsLong();
      OffsetEntry offsets = checkpoint.offsets(lastBatch).orElse(null);
      if (offsets != null) {
        batchTime = Instant.ofEpochMilli(offsets.batchTimestampMs());
        watermark = offsets.batchWatermarkMs() > 0 ? Instant.ofEpochMilli(offsets.batchWatermarkMs()) : null;
      }
      CommitEntry commit = checkpoint.commit(lastBatch).orElse(null);
      if (commit != null && commit.nextBatchWatermarkMs() > 0) {
        // the watermark the next batch starts from: the batch's own one moved by the event times it saw
        watermark = Instant.ofEpochMilli(commit.nextBatchWatermarkMs());
      }
    }
    Long uncommitted = planned.isPresent() && (committed.isEmpty() || planned.getAsLong() > committed.getAsLong())
        ? planned.getAsLong() : null;

    String uri = Pipelines.tableUri(config, p);
    Table table = session.table(uri);
    Long version = null;
    Instant versionTime = null;
    Long rowsIn = null;
    Map<String, Long> ledger = Map.of();
    if (table.exists()) {
      List<HistoryEntry> last = table.history(1);
      if (!last.isEmpty()) {
        HistoryEntry h = last.get(0);
        version = h.version();
        versionTime = h.timestamp();
        ledger = Ledger.of(h.operationMetrics());
        rowsIn = ledger.get("rowsIn");
      }
    }
    return new PipelineStatus(p.name(), p.layer().name().toLowerCase(Locale.ROOT), p.sink().table(), uri, lastBatch,
        text(batchTime), text(watermark), uncommitted, version, text(versionTime), rowsIn, ledger,
        state(checkpoint.stateLocation(), checkpoint.stateRows()),
        lastRun.map(r -> new LastRun(r.start().toString(),
            r.end().toString(), r.cause().name().toLowerCase(Locale.ROOT), r.outcome().name().toLowerCase(Locale.ROOT),
            r.attempt(), r.error().orElse(null), r.node())).orElse(null));
  }

  private static String text(Instant i) {
    return i == null ? null : i.toString();
  }

  /** {@code state/<operator>/<partition>/<version>.delta|.snapshot}; null when the query keeps no state. */
  private static State state(Location dir, Map<String, Long> rows) {
    TreeSet<String> operators = new TreeSet<>();
    long version = -1;
    long files = 0;
    long bytes = 0;
    String prefix = dir.key() + "/";
    try (CloseableIterator<ObjectStatus> it = dir.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        String[] parts = s.key().substring(prefix.length()).split("/");
        if (parts.length != 3 || !parts[2].matches("\\d+\\.(delta|snapshot)")) {
          continue;
        }
        operators.add(parts[0]);
        version = Math.max(version, Long.parseLong(parts[2].substring(0, parts[2].indexOf('.'))));
        files++;
        bytes += s.size();
      }
    }
    return operators.isEmpty() ? null : new State(operators.size(), version, files, bytes, rows);
  }
}
