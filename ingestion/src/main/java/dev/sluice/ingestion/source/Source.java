package dev.sluice.ingestion.source;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.types.StructType;
import java.util.Optional;

/**
 * A streaming source: reports how far data is available and returns the rows between two offsets.
 * The runner writes the offsets of each batch to the checkpoint before reading them, so
 * {@link #getBatch} must return the same rows for the same offsets after a restart.
 *
 * <p>Called from the query's single runner thread.
 */
public interface Source extends AutoCloseable {
  /** The schema of the rows this source returns (fixed for the life of the query). */
  StructType schema();

  /**
   * The end offset of the next batch: as far as data is available after {@code start} (empty start:
   * from the beginning), within {@code limit}, and never past the end fixed by
   * {@link #prepareForAvailableNow()}. Empty when there is nothing new.
   */
  Optional<SourceOffset> latestOffset(Optional<SourceOffset> start, ReadLimit limit);

  /** Fixes the end of the backlog now: later {@link #latestOffset} calls never go past it. */
  default void prepareForAvailableNow() {}

  /** The rows in (start, end]; deterministic for the same offsets. */
  Batch getBatch(Optional<SourceOffset> start, SourceOffset end);

  /**
   * True when the source saw data it will offer later but not yet (e.g. files still being written): the query is
   * then not idle, so that {@code processAllAvailable} waits for that data.
   */
  default boolean awaitingData() {
    return false;
  }

  /**
   * Counters of what the source met since the previous call besides the rows it returned (files skipped, records
   * it could not parse, …), reset by the call. The runner calls it after reading each batch and reports the
   * counters in the batch's progress ({@code sources[i].metrics}, and {@code source.<name>} in
   * {@code observedMetrics}).
   */
  default java.util.Map<String, Long> metrics() {
    return java.util.Map.of();
  }

  /** Everything up to {@code end} is committed to the sink: the source may clean up (archive files, compact logs). */
  default void commit(SourceOffset end) {}

  /** A one-line description for progress reports, e.g. {@code FileSource[s3://bucket/landing/orders]}. */
  String description();

  @Override
  default void close() {}
}
