package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.types.StructType;
import java.time.Instant;

/**
 * One step of a query's per-batch plan (projection, filter, derived column, …). Bound to its input
 * schema when the query starts; applied to every batch.
 */
public interface Transform {
  /** The schema of this step's output. */
  StructType schema();

  /** Applies the step to one batch. */
  Batch apply(Batch input, BatchInfo info);

  /** A short description for plans and errors, e.g. {@code Filter[amount > 0]}. */
  String describe();

  /**
   * What a step may need to know about the batch it runs in: its id and timestamp, the event-time
   * watermark in force (epoch ms; 0 before any event was seen, as in Spark), the state stores of
   * stateful steps, where late rows go, and the query's id (from its checkpoint).
   */
  record BatchInfo(long batchId, Instant batchTimestamp, long watermarkMs,
      java.util.function.Function<StatefulTransform, dev.sluice.ingestion.state.StateStore> stores, LateRows lateRows,
      java.util.Map<String, Long> metrics, java.util.UUID queryId) {
    /** The query id of batches run outside a query (tests, harnesses). */
    static final java.util.UUID NO_QUERY = new java.util.UUID(0, 0);

    public BatchInfo(long batchId, Instant batchTimestamp, long watermarkMs,
        java.util.function.Function<StatefulTransform, dev.sluice.ingestion.state.StateStore> stores, LateRows lateRows) {
      this(batchId, batchTimestamp, watermarkMs, stores, lateRows, new java.util.concurrent.ConcurrentHashMap<>(),
          NO_QUERY);
    }

    /**
     * Adds {@code delta} to a per-batch counter (e.g. {@code expectation.positive_amount.failed}); the
     * runner reports the counters in the batch's progress ({@code observedMetrics}) and sink commit.
     */
    public void count(String metric, long delta) {
      metrics.merge(metric, delta, Long::sum);
    }

    /** A batch without state (stateless steps, tests). */
    public static BatchInfo of(long batchId, Instant batchTimestamp) {
      return new BatchInfo(batchId, batchTimestamp, 0, t -> {
        throw new IllegalStateException("No state store in this batch for " + t.describe());
      }, LateRows.NONE);
    }

    /** The state store of {@code step} for this batch. */
    public dev.sluice.ingestion.state.StateStore store(StatefulTransform step) {
      return stores.apply(step);
    }
  }
}
