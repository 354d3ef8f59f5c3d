package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /** The winner per key by {@link VersionOrder}, in order of first arrival; counts the losers as superseded. */
  static Map<List<Object>, Change> latestPerKey(List<Change> changes, MergeLedger ledger) {
    // Sized for every change having a key of its own (most do): growing the table rehashed every key many times.
    Map<List<Object>, Change> out = new LinkedHashMap<>(Math.max(16, changes.size() * 4 / 3 + 1));
    for (Change c : changes) {
      Change previous = out.get(c.key());
      if (previous == null || VersionOrder.laterWins(previous, c)) {
        out.put(c.key(), c);
      }
      if (previous != null) {
        ledger.superseded++;
      }
    }
    return out;
  }
}
