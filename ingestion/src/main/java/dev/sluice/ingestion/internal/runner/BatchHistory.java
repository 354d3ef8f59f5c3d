package dev.sluice.ingestion.internal.runner;

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
 * Every batch's progress of a session's queries (or of those with one name) while it listens, by run. A query's
 * {@code recentProgress()} keeps only the last 100 batches: a run of 200 bronze batches was reported as 100, with half
 * its rows and ledger, and benches that summed it counted too few rows. Public for the CLI and the benches; not an API.
 */
public final class BatchHistory implements StreamingQueryListener, AutoCloseable {
  private final SluiceSession session;
  private final String name;
  private final Map<UUID, List<QueryProgress>> byRun = new ConcurrentHashMap<>();

  private BatchHistory(SluiceSession session, String name) {
    this.session = session;
    this.name = name;
  }

  /** Listens to all of {@code session}'s queries (start it before the queries it should see) until closed. */
  public static BatchHistory of(SluiceSession session) {
    return listen(new BatchHistory(session, null));
  }

  /** The same, for the queries named {@code name} only. */
  public static BatchHistory of(SluiceSession session, String name) {
    return listen(new BatchHistory(session, name));
  }

  private static BatchHistory listen(BatchHistory history) {
    history.session.streams().addListener(history);
    return history;
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    if (name == null || name.equals(query.name())) {
      byRun.computeIfAbsent(query.runId(), id -> Collections.synchronizedList(new ArrayList<>())).add(progress);
    }
  }

  /** Every batch of {@code query}'s run so far, in order. */
  public List<QueryProgress> of(StreamingQuery query) {
    List<QueryProgress> batches = byRun.get(query.runId());
    if (batches == null) {
      return List.of();
    }
    synchronized (batches) {
      return List.copyOf(batches);
    }
  }

  /** The input rows of every batch of {@code query}'s run so far. */
  public long inputRows(StreamingQuery query) {
    return of(query).stream().mapToLong(QueryProgress::numInputRows).sum();
  }

  @Override
  public void close() {
    session.streams().removeListener(this);
  }
}
