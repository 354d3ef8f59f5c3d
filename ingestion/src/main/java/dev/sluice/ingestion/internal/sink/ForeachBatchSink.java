package dev.sluice.ingestion.internal.sink;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchFunction;
import dev.sluice.ingestion.sink.Sink;

/** Hands each batch to a user function (which must be idempotent per batch id). */
public final class ForeachBatchSink implements Sink {
  private final BatchFunction function;

  public ForeachBatchSink(BatchFunction function) {
    this.function = function;
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    function.call(batch, batchId);
    return batch.size();
  }

  @Override
  public long addBatch(long batchId, Batch batch, java.util.Map<String, Long> batchMetrics) {
    function.call(batch, batchId, batchMetrics);
    return batch.size();
  }

  @Override
  public String description() {
    return "ForeachBatchSink";
  }
}
