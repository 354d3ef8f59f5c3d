package dev.sluice.bench;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every batch's progress of a session's queries while it listens. A query's {@code recentProgress()} keeps only the
 * last 100 batches, so a bench of more batches that summed it counted too few rows, and a wait for all of them ran
 * into its deadline.
 */
final class AllProgress implements StreamingQueryListener, AutoCloseable {
  private final SluiceSession session;
  private final Map<UUID, List<QueryProgress>> byRun = new ConcurrentHashMap<>();

  private AllProgress(SluiceSession session) {
    this.session = session;
  }

  /** Listens to {@code session}'s queries (start it before the queries it should see) until closed. */
  static AllProgress of(SluiceSession session) {
    AllProgress all = new AllProgress(session);
    session.streams().addListener(all);
    return all;
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    byRun.computeIfAbsent(query.runId(), id -> Collections.synchronizedList(new ArrayList<>())).add(progress);
  }

  /** Every batch of {@code query}'s run so far, in order. */
  List<QueryProgress> of(StreamingQuery query) {
    List<QueryProgress> batches = byRun.get(query.runId());
    if (batches == null) {
      return List.of();
    }
    synchronized (batches) {
      return List.copyOf(batches);
    }
  }

  /** The input rows of every batch of {@code query}'s run so far. */
  long inputRows(StreamingQuery query) {
    return of(query).stream().mapToLong(QueryProgress::numInputRows).sum();
  }

  @Override
  public void close() {
    session.streams().removeListener(this);
  }
}
