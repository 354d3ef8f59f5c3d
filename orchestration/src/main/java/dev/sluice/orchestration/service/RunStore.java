package dev.sluice.orchestration.service;

import java.util.List;
import java.util.Optional;

/**
 * Where the service keeps its run records: in memory for one node ({@link #inMemory(int)}), or a table every node
 * of a cluster and {@code sluice status}/{@code sluice runs} read (the cluster store). Implementations are safe for
 * concurrent use.
 */
public interface RunStore {
  /** Records a finished run. */
  void add(RunRecord run);

  /** The pipeline's latest runs, oldest first (at most the store's limit). */
  List<RunRecord> runs(String pipeline);

  /** The pipeline's latest run on any node, if it ever ran. */
  Optional<RunRecord> last(String pipeline);

  /** The latest {@code limit} runs, newest first: of one pipeline, or of all when {@code pipeline} is empty. */
  List<RunRecord> recent(Optional<String> pipeline, int limit);

  /** Keeps the latest {@code limit} records per pipeline in memory. */
  static RunStore inMemory(int limit) {
    return new RunHistory(limit);
  }
}
