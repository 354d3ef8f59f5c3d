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

  /** What a step may need to know about the batch it runs in. */
  record BatchInfo(long batchId, Instant batchTimestamp) {}
}
