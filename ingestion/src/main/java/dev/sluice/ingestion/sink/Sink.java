package dev.sluice.ingestion.sink;

import dev.sluice.ingestion.Batch;

/**
 * Where a query's batches go. {@link #addBatch} must be idempotent per batch id: after a crash the
 * runner may call it again for a batch whose effect is already durable (it then has no effect).
 */
public interface Sink extends AutoCloseable {
  /**
   * What {@link #addBatch} returns when it found the batch already committed (its {@code txn} is in the
   * table): the batch was re-run after a crash, and its rows must not be counted again.
   */
  long ALREADY_COMMITTED = -1;

  /** Writes batch {@code batchId}; returns the number of rows written, or {@link #ALREADY_COMMITTED}. */
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

  /** Releases what the sink holds (e.g. a Kafka producer); the runner calls it once when the query ends. */
  @Override
  default void close() {}
}
