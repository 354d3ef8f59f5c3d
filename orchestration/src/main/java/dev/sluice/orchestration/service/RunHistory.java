package dev.sluice.orchestration.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The latest run records of each pipeline in memory, oldest first, at most {@code limit} per pipeline. */
final class RunHistory implements RunStore {
  private final int limit;
  private static final Logger LOG = LoggerFactory.getLogger(RunHistory.class);

  private final Map<String, Deque<RunRecord>> byPipeline = new HashMap<>();
  private final List<Consumer<RunRecord>> listeners = new CopyOnWriteArrayList<>();

  RunHistory(int limit) {
    this.limit = limit;
  }

  @Override
  public void add(RunRecord r) {
    synchronized (this) {
      Deque<RunRecord> runs = byPipeline.computeIfAbsent(r.pipeline(), k -> new ArrayDeque<>());
      runs.addLast(r);
      if (runs.size() > limit) {
        runs.removeFirst();
      }
    }
    for (Consumer<RunRecord> l : listeners) {
      try {
        l.accept(r);
      } catch (RuntimeException e) {
        // a listener (metrics, say) must never fail the run that it watches
        LOG.warn("A run listener failed on the run of {}: {}", r.pipeline(), e.toString());
      }
    }
  }

  /** Calls {@code listener} with every run recorded from now on, on the thread that ran it. */
  void listen(Consumer<RunRecord> listener) {
    listeners.add(listener);
  }

  @Override
  public synchronized List<RunRecord> runs(String pipeline) {
    Deque<RunRecord> runs = byPipeline.get(pipeline);
    return runs == null ? List.of() : List.copyOf(runs);
  }

  @Override
  public synchronized Optional<RunRecord> last(String pipeline) {
    Deque<RunRecord> runs = byPipeline.get(pipeline);
    return runs == null ? Optional.empty() : Optional.ofNullable(runs.peekLast());
  }

  @Override
  public synchronized List<RunRecord> recent(Optional<String> pipeline, int limit) {
    List<RunRecord> all = new ArrayList<>();
    byPipeline.forEach((name, runs) -> {
      if (pipeline.isEmpty() || pipeline.get().equals(name)) {
        all.addAll(runs);
      }
    });
    all.sort(Comparator.comparing(RunRecord::end).reversed());
    return List.copyOf(all.subList(0, Math.min(limit, all.size())));
  }
}
