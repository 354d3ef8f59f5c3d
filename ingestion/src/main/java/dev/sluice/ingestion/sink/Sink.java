package dev.sluice.ingestion.sink;

import dev.sluice.ingestion.Batch;

/**
 * Where a query's batches go. {@link #addBatch} must be idempotent per batch id: after a crash the
 * runner may call it again for a batch whose effect is already durable (it then has no effect).
 */
public interface Sink {
  /** Writes batch {@code batchId}; returns the number of rows written (0 if skipped as already done). */
  long addBatch(long batchId, Batch batch);

  /** A one-line description for progress reports. */
  String description();
}
