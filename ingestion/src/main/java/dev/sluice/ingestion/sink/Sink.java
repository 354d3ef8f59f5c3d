package dev.sluice.ingestion.sink;

import dev.sluice.ingestion.Batch;

/**
 * Where a query's batches go. {@link #addBatch} must be idempotent per batch id: after a crash the
 * runner may call it again for a batch whose effect is already durable (it then has no effect).
 */
public interface Sink {
  /** Writes batch {@code batchId}; returns the number of rows written (0 if skipped as already done). */
  long addBatch(long batchId, Batch batch);

  /**
   * Same, with facts about the batch to record beside the data (e.g. the version of a static join
   * table, {@code staticVersion.<name>}); sinks that keep commit metadata write them there.
   */
  default long addBatch(long batchId, Batch batch, java.util.Map<String, Long> batchMetrics) {
    return addBatch(batchId, batch);
  }

  /** A one-line description for progress reports. */
  String description();
}
