package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of a batch as a change of its key: an upsert or (by {@code delete_when}; NULL counts as false) a
 * delete, at its {@code sequence_by} value (null without one).
 */
record Change(Row row, List<Object> key, Object sequence, boolean delete) {
  /** The batch's rows as changes, in arrival order; their keys are never null (null keys are quarantined). */
  static List<Change> of(Batch batch, MergeConfig config, EvalContext context) {
    int[] keys = SilverSchemas.positions(batch.schema(), config.keys());
    int seq = config.sequenceBy().map(batch.schema()::indexOf).orElse(-1);
    BoundExpression deleteWhen = config.deleteWhen().map(sql -> Expressions.bindPredicate(sql, batch.schema()))
        .orElse(null);
    List<Change> out = new ArrayList<>(batch.size());
    for (Row row : batch.rows()) {
      out.add(new Change(row, SilverSchemas.key(row, keys), seq < 0 ? null : row.get(seq),
          deleteWhen != null && deleteWhen.test(row, context)));
    }
    return out;
  }
}
