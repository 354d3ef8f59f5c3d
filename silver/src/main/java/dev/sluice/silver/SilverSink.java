package dev.sluice.silver;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchContext;
import dev.sluice.ingestion.BatchFunction;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.Table;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code foreachBatch} function of a silver query: appends the batch's quarantined rows to
 * {@code <table>_quarantine} ({@code txn(<query id>:quarantine, batchId)}), then MERGEs the rest into the
 * silver table ({@code txn(<query id>, batchId)}) with the batch's counters (ledger, expectations) in the
 * commit's {@code operationMetrics}; the ledger's MERGE terms (written, superseded, unchanged) are also put
 * into the batch's counters, so that its progress reports them. Both writes are skipped when a re-run finds
 * them committed. A batch
 * that read no rows (a no-data batch moving the watermark) commits nothing.
 */
final class SilverSink implements BatchFunction {
  private final String pipeline;
  private final Table quarantine;
  private final BatchStates states;
  private final MergeStrategy merge;

  SilverSink(String pipeline, Table quarantine, BatchStates states, MergeStrategy merge) {
    this.pipeline = pipeline;
    this.quarantine = quarantine;
    this.states = states;
    this.merge = merge;
  }

  @Override
  public void call(Batch batch, long batchId) {
    throw new UnsupportedOperationException("SilverSink writes with the query's id: call(batch, context)");
  }

  @Override
  public boolean call(Batch batch, BatchContext context) {
    long batchId = context.batchId();
    Map<String, Long> batchMetrics = context.metrics();
    BatchStates.State state = states.take(batchId);
    if (state == null) {
      throw new IllegalStateException("Pipeline '" + pipeline + "': batch " + batchId + " reached the sink without"
          + " passing the silver steps; the query was not built by SilverPipeline.start");
    }
    boolean written = true;
    if (!state.quarantined.isEmpty()) {
      quarantine.create(QuarantineRows.schema(batch.schema())).ifNotExists().commit();
      written = !quarantine.newAppend().schema(QuarantineRows.schema(batch.schema())).rows(state.quarantined)
          .txn(context.appId("quarantine"), batchId).metric(RowLedger.QUARANTINED, state.quarantined.size()).commit()
          .skipped();
    }
    if (batchMetrics.getOrDefault(RowLedger.ROWS_IN, 0L) == 0 && batch.size() == 0) {
      return written;
    }
    Map<String, Long> metrics = new TreeMap<>();
    batchMetrics.forEach((k, v) -> {
      if (k.startsWith("ledger.") || k.startsWith("expectation.")) {
        metrics.put(k, v);
      }
    });
    Instant timestamp = state.timestamp;
    boolean merged = !merge.merge(batch, context.appId(), batchId, EvalContext.of(timestamp), metrics).skipped();
    // The MERGE decided written / superseded / unchanged; the batch's progress reports them too.
    for (String k : List.of(RowLedger.WRITTEN, RowLedger.SUPERSEDED, RowLedger.UNCHANGED)) {
      batchMetrics.put(k, metrics.get(k));
    }
    return merged;
  }
}
