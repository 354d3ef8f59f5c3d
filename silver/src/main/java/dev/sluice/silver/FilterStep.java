package dev.sluice.silver;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.ExpressionException;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** The pipeline's {@code filter}: keeps the rows for which the condition is true (false and null leave) and counts the rest. */
final class FilterStep implements BatchTransformer {
  private final String pipeline;
  private final String condition;
  private BoundExpression bound;

  FilterStep(String pipeline, String condition) {
    this.pipeline = pipeline;
    this.condition = condition;
  }

  @Override
  public StructType outputSchema(StructType input) {
    try {
      bound = Expressions.bindPredicate(condition, input);
    } catch (ExpressionException e) {
      throw new IllegalArgumentException("Pipeline '" + pipeline + "': filter '" + condition + "' is not valid: "
          + e.getMessage(), e);
    }
    return input;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    EvalContext ctx = EvalContext.of(context.batchTimestamp());
    BitSet kept = new BitSet(batch.size());
    int i = 0;
    for (Row row : batch.rows()) {
      if (bound.test(row, ctx)) {
        kept.set(i);
      }
      i++;
    }
    context.count(RowLedger.FILTERED, batch.size() - kept.cardinality());
    return batch.keep(kept);
  }
}
