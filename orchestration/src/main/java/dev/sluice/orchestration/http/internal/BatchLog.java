package dev.sluice.orchestration.http.internal;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryListener;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * The recent batches of each pipeline (the progress of its queries' last {@link #LIMIT} batches, across runs),
 * which the dashboard charts and the API's pipeline view report. Batches of queries that are not the config's
 * pipelines are ignored.
 */
public final class BatchLog implements StreamingQueryListener {
  public static final int LIMIT = 120;

  private final Set<String> pipelines;
  private final Map<String, Deque<QueryProgress>> byPipeline = new HashMap<>();
  private final List<BiConsumer<String, QueryProgress>> listeners = new CopyOnWriteArrayList<>();

  public BatchLog(Set<String> pipelines) {
    this.pipelines = Set.copyOf(pipelines);
  }

  /** Also tells {@code listener} of every batch (on the query's thread). */
  public void listen(BiConsumer<String, QueryProgress> listener) {
    listeners.add(listener);
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    String name = query.name();
    if (name == null || !pipelines.contains(name)) {
      return;
    }
    synchronized (this) {
      Deque<QueryProgress> recent = byPipeline.computeIfAbsent(name, k -> new ArrayDeque<>());
      recent.addLast(progress);
      if (recent.size() > LIMIT) {
        recent.removeFirst();
      }
    }
    listeners.forEach(l -> l.accept(name, progress));
  }

  /** The pipeline's recent batches, oldest first. */
  public synchronized List<QueryProgress> recent(String pipeline) {
    Deque<QueryProgress> recent = byPipeline.get(pipeline);
    return recent == null ? List.of() : List.copyOf(recent);
  }

  public synchronized Optional<QueryProgress> last(String pipeline) {
    Deque<QueryProgress> recent = byPipeline.get(pipeline);
    return recent == null ? Optional.empty() : Optional.ofNullable(recent.peekLast());
  }
}
