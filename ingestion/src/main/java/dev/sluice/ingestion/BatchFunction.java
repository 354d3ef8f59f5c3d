package dev.sluice.ingestion;

/**
 * The user function of {@code foreachBatch}: called once per micro-batch with its rows and id. After a
 * crash the same batch may be passed again with the same id, so the function must be idempotent
 * per batch id (e.g. write with {@code txn(appId, batchId)}, as {@link MergeIntoTable} does).
 */
@FunctionalInterface
public interface BatchFunction {
  void call(Batch batch, long batchId);

  /**
   * Same, with the batch's counters (from steps, e.g. expectation results and static table versions)
   * so that a function writing tables can record them in its commits. The map is the one the batch's
   * progress reports as {@code observedMetrics}: counters the function puts into it (e.g. what its write
   * did) are reported too. Defaults to {@link #call(Batch, long)}.
   */
  default void call(Batch batch, long batchId, java.util.Map<String, Long> batchMetrics) {
    call(batch, batchId);
  }
}
