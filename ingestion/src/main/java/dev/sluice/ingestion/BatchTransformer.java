package dev.sluice.ingestion;

import dev.sluice.table.types.StructType;
import java.time.Instant;

/**
 * A custom stateless step over whole micro-batches (used by the layers for expectations, lineage
 * columns and quarantine routing): declares its output schema once, then maps each batch.
 */
public interface BatchTransformer {
  /**
   * The output schema for this input schema, checked when the query starts.
   *
   * @throws IllegalArgumentException naming a missing column or a bad setting
   */
  StructType outputSchema(StructType input);

  /** Maps one batch; must be deterministic for the same input (a batch may be re-run after a crash). */
  Batch apply(Batch batch, Context context);

  /** What a step may know about its batch, and where it counts things. */
  interface Context {
    /**
     * The query's id, from its checkpoint: a step that writes a table builds its {@code txn} appId from it
     * ({@link BatchContext#appId(java.util.UUID, String)}), so that a new checkpoint never collides with an old one.
     */
    java.util.UUID queryId();

    long batchId();

    /** The batch's timestamp (constant within the batch, also across a re-run). */
    Instant batchTimestamp();

    /** The event-time watermark in force (epoch ms, 0 before any event). */
    long watermarkMs();

    /** Adds to a per-batch counter, reported in progress ({@code observedMetrics}) and in the sink's commit. */
    void count(String metric, long delta);
  }
}
