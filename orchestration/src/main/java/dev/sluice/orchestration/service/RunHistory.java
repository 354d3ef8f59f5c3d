package dev.sluice.orchestration.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The latest run records of each pipeline in memory, oldest first, at most {@code limit} per pipeline. */
final class RunHistory implements RunStore {
  private final int limit;
  private final Map<String, Deque<RunRecord>> byPipeline = new HashMap<>();

  RunHistory(int limit) {
    this.limit = limit;
  }

  @Override
  public synchronized void add(RunRecord r) {
    Deque<RunRecord> runs = byPipeline.computeIfAbsent(r.pipeline(), k -> new ArrayDeque<>());
    runs.addLast(r);
    if (runs.size() > limit) {
      runs.removeFirst();
    }
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
