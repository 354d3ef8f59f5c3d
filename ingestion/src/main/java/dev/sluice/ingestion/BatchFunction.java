package dev.sluice.ingestion;

/**
 * The user function of {@code foreachBatch}: called once per micro-batch with its rows and id. After a
 * crash the same batch may be passed again with the same id, so the function must be idempotent
 * per batch: write with {@code txn(context.appId(), batchId)} (see {@link BatchContext}, and
 * {@link MergeIntoTable}), never with an id that outlives the checkpoint such as the query's name.
 *
 * <p>The batch's rows are valid during the call: a large batch is held in pooled column chunks that the next batch
 * reuses, and reading it after its micro-batch ended fails with an {@code IllegalStateException}. Copy the rows a
 * function keeps beyond its call (as with the DataFrame of a Spark micro-batch).
 */
@FunctionalInterface
public interface BatchFunction {
  void call(Batch batch, long batchId);

  /**
   * Same, with the batch's {@link BatchContext}: the query id to build idempotency ids from, and the batch's
   * counters (from steps, e.g. expectation results and static table versions), so that a function writing tables
   * can record them in its commits. The counters map is the one the batch's progress reports as
   * {@code observedMetrics}: counters the function puts into it (e.g. what its write did) are reported too.
   * Defaults to {@link #call(Batch, long)}.
   *
   * @return false when the batch's writes were all found already committed (a batch re-run after a crash
   *     that happened after its commit): progress then reports the batch as already committed and its rows
   *     are not counted again; true otherwise
   */
  default boolean call(Batch batch, BatchContext context) {
    call(batch, context.batchId());
    return true;
  }
}
