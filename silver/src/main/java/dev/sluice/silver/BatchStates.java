package dev.sluice.silver;

import dev.sluice.table.data.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the steps of one batch leave for later steps and for the sink function: the batch timestamp, the
 * quarantined rows and the row count before deduplication. Rebuilt whenever a batch runs (also when it is
 * re-run after a crash), because the first step of the plan starts a fresh entry.
 */
final class BatchStates {
  private final Map<Long, State> states = new ConcurrentHashMap<>();

  /** Per-batch values; touched by one batch's steps and sink in turn, never concurrently. */
  static final class State {
    final Instant timestamp;
    final List<Row> quarantined = new ArrayList<>();
    long beforeDedup;
    long late;

    State(Instant timestamp) {
      this.timestamp = timestamp;
    }
  }

  State start(long batchId, Instant timestamp) {
    State s = new State(timestamp);
    states.put(batchId, s);
    return s;
  }

  State of(long batchId) {
    State s = states.get(batchId);
    if (s == null) {
      throw new IllegalStateException("Silver batch " + batchId + " has no state: the ledger step did not run first");
    }
    return s;
  }

  /** Removes and returns the batch's state (null if its steps did not run in this process). */
  State take(long batchId) {
    return states.remove(batchId);
  }
}
