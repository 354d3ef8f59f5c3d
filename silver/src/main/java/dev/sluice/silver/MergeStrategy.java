package dev.sluice.silver;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.CommitResult;
import dev.sluice.table.types.StructType;
import java.util.Map;

/** How one batch is MERGEd into the silver table (SCD type 1 or 2): one commit, idempotent per batch. */
interface MergeStrategy {
  /** The silver table's schema for the schema of the rows reaching the sink. */
  StructType tableSchema(StructType stage);

  /**
   * MERGEs the batch with {@code txn(appId, batchId)}, recording {@code metrics} in the commit; a re-run of a
   * committed batch is skipped.
   */
  CommitResult merge(Batch batch, String appId, long batchId, EvalContext context, Map<String, Long> metrics);
}
