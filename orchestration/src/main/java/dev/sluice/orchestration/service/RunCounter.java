package dev.sluice.orchestration.service;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryListener;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the batches, input rows and row ledger of each run of the service's pipelines. A listener rather than
 * {@code recentProgress()}, which keeps only the last 100 batches.
 */
final class RunCounter implements StreamingQueryListener {
  /** Batches, rows and ledger of one run. */
  record Counts(long batches, long rows, Map<String, Long> ledger) {
    static final Counts NONE = new Counts(0, 0, Map.of());

    Counts plus(Counts other) {
      Map<String, Long> sum = new LinkedHashMap<>(ledger);
      other.ledger.forEach((k, v) -> sum.merge(k, v, Long::sum));
      return new Counts(batches + other.batches, rows + other.rows, sum);
    }
  }

  private final Set<String> pipelines;
  private final Map<UUID, Counts> byRun = new ConcurrentHashMap<>();

  RunCounter(Set<String> pipelines) {
    this.pipelines = Set.copyOf(pipelines);
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    if (query.name() != null && pipelines.contains(query.name())) {
      // a batch re-run after a crash whose commit the sink found already done was counted by the run that crashed
      boolean committedHere = progress.sink() == null || !progress.sink().alreadyCommitted();
      Map<String, Long> ledger = committedHere ? RowLedger.of(progress.observedMetrics()) : Map.of();
      byRun.merge(query.runId(), new Counts(1, progress.numInputRows(), ledger), Counts::plus);
    }
  }

  /** The counts of a finished run, forgotten once taken. */
  Counts take(UUID runId) {
    Counts c = byRun.remove(runId);
    return c == null ? Counts.NONE : c;
  }
}
