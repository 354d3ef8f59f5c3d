package dev.sluice.orchestration.service;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryListener;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the batches and input rows of each run of the service's pipelines. A listener rather than
 * {@code recentProgress()}, which keeps only the last 100 batches.
 */
final class RunCounter implements StreamingQueryListener {
  /** Batches and rows of one run. */
  record Counts(long batches, long rows) {
    static final Counts NONE = new Counts(0, 0);
  }

  private final Set<String> pipelines;
  private final Map<UUID, Counts> byRun = new ConcurrentHashMap<>();

  RunCounter(Set<String> pipelines) {
    this.pipelines = Set.copyOf(pipelines);
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    if (query.name() != null && pipelines.contains(query.name())) {
      byRun.merge(query.runId(), new Counts(1, progress.numInputRows()),
          (a, b) -> new Counts(a.batches() + b.batches(), a.rows() + b.rows()));
    }
  }

  /** The counts of a finished run, forgotten once taken. */
  Counts take(UUID runId) {
    Counts c = byRun.remove(runId);
    return c == null ? Counts.NONE : c;
  }
}
