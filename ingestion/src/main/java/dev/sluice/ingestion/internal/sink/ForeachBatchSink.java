package dev.sluice.ingestion.internal.sink;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchContext;
import dev.sluice.ingestion.BatchFunction;
import dev.sluice.ingestion.sink.Sink;
import java.util.Map;
import java.util.UUID;

/** Hands each batch to a user function (which must be idempotent per batch id), with the query's id. */
public final class ForeachBatchSink implements Sink {
  private final BatchFunction function;
  private final UUID queryId;

  public ForeachBatchSink(BatchFunction function, UUID queryId) {
    this.function = function;
    this.queryId = queryId;
  }

  @Override
  public long addBatch(long batchId, Batch batch) {
    return addBatch(batchId, batch, new java.util.HashMap<>());
  }

  @Override
  public long addBatch(long batchId, Batch batch, Map<String, Long> batchMetrics) {
    boolean written = function.call(batch, new BatchContext(queryId, batchId, batchMetrics));
    return written ? batch.size() : ALREADY_COMMITTED;
  }

  @Override
  public String description() {
    return "ForeachBatchSink";
  }
}
