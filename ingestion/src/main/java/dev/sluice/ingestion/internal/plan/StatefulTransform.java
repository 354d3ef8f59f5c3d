package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateTimeIndex;
import java.util.Map;
import java.util.Optional;

/**
 * A plan step that keeps state across batches in a {@link dev.sluice.ingestion.state.StateStore}
 * (deduplication, aggregation, …). The runner gives it its store through {@link BatchInfo#store},
 * commits the store after the step ran, and reports its metrics as a {@code stateOperators} entry.
 */
public interface StatefulTransform extends Transform {
  /** Spark's operator name for progress, e.g. {@code dedupeWithinWatermark}, {@code stateStoreSave}. */
  String operatorName();

  StateSchema stateSchema();

  /** Where the event time of a state entry is, for a step that evicts entries as the watermark passes them. */
  default Optional<StateTimeIndex> timeIndex() {
    return Optional.empty();
  }

  /**
   * What of this step determines its state (keys, aggregates, window, event-time column, output mode),
   * as name → value lines; a restart whose lines differ can't reuse the checkpoint's state.
   */
  Map<String, String> fingerprint();

  /**
   * Whether a batch without new input must run because the watermark moved from {@code previousMs} to
   * {@code currentMs}: windows to emit in append mode, state to evict.
   */
  boolean needsNoDataBatch(long previousMs, long currentMs);

  /**
   * Whether a batch without new input must run because a processing-time timeout or timer is due at
   * {@code processingTimeMs} (Spark's no-data batches for {@code ProcessingTimeTimeout}). A step that doesn't know
   * its due times yet (the first batch of a run) may read them from {@code committed}: the state the next batch
   * starts from, which the caller aborts afterwards.
   */
  default boolean timerDue(long processingTimeMs, java.util.function.Supplier<dev.sluice.ingestion.state.StateStore> committed) {
    return false;
  }

  /**
   * The {@code numRowsTotal} to report for the state just committed: the store's entry count unless an entry holds
   * several of the operator's rows (a stream-stream join side buffers a list of rows per key).
   */
  default long numRowsTotal(dev.sluice.ingestion.state.StateStoreMetrics committed) {
    return committed.numRowsTotal();
  }

  /** Rows of the last {@link #apply} dropped because they were older than the watermark. */
  long lastDroppedByWatermark();
}
