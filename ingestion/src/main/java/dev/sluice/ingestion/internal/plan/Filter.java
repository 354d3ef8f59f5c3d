package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** {@code filter(condition)}: keeps rows for which the SQL condition is true (null and false drop the row). */
public final class Filter implements Transform {
  private final StructType schema;
  private final BoundExpression condition;

  private Filter(StructType schema, BoundExpression condition) {
    this.schema = schema;
    this.condition = condition;
  }

  public static TransformSpec of(String condition) {
    return input -> new Filter(input, Expressions.bindPredicate(condition, input));
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    EvalContext context = new EvalContext(info.batchTimestamp());
    BitSet kept = new BitSet(input.size());
    int i = 0;
    for (Row r : input.rows()) {
      if (condition.test(r, context)) {
        kept.set(i);
      }
      i++;
    }
    return input.keep(kept);
  }

  @Override
  public String describe() {
    return "Filter[" + condition.sql() + "]";
  }
}
