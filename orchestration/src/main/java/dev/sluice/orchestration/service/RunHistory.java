package dev.sluice.orchestration.service;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The latest run records of each pipeline, oldest first, at most {@code limit} per pipeline. */
final class RunHistory {
  private final int limit;
  private final Map<String, Deque<RunRecord>> byPipeline = new HashMap<>();

  RunHistory(int limit) {
    this.limit = limit;
  }

  synchronized void add(RunRecord r) {
    Deque<RunRecord> runs = byPipeline.computeIfAbsent(r.pipeline(), k -> new ArrayDeque<>());
    runs.addLast(r);
    if (runs.size() > limit) {
      runs.removeFirst();
    }
  }

  synchronized List<RunRecord> runs(String pipeline) {
    Deque<RunRecord> runs = byPipeline.get(pipeline);
    return runs == null ? List.of() : List.copyOf(runs);
  }

  synchronized Optional<RunRecord> last(String pipeline) {
    Deque<RunRecord> runs = byPipeline.get(pipeline);
    return runs == null ? Optional.empty() : Optional.ofNullable(runs.peekLast());
  }
}
