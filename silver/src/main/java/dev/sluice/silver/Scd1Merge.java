package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.CommitResult;
import dev.sluice.table.Merge;
import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SCD type 1: one row per key holding its latest version. With {@code sequence_by}, the greatest sequence
 * value of a batch wins ({@code Merge.latestBy}; a null sequence loses) and a matched row is only changed
 * when the source is newer, so an older version arriving later never overwrites a newer one. Without it,
 * the last row of a key in the batch wins and always overwrites. {@code delete_when} (true for the source
 * row; NULL counts as false) deletes the matched row when the source is newer, and such a row is never
 * inserted. A deleted key leaves no tombstone: an older version arriving after the delete is inserted again.
 */
final class Scd1Merge implements MergeStrategy {
  private final Table table;
  private final MergeConfig config;

  Scd1Merge(Table table, MergeConfig config) {
    this.table = table;
    this.config = config;
  }

  @Override
  public StructType tableSchema(StructType stage) {
    return stage;
  }

  @Override
  public CommitResult merge(Batch batch, String appId, long batchId, EvalContext context, Map<String, Long> metrics) {
    String seq = config.sequenceBy().orElse(null);
    List<Row> rows = seq == null ? lastPerKey(batch) : batch.rows();
    Merge merge = table.newMerge().source(batch.schema(), rows).on(config.keys().toArray(String[]::new))
        .txn(appId, batchId).operation("STREAMING MERGE").metrics(metrics);
    if (rows.isEmpty()) {
      // Nothing to match: skip reading the table, but still commit so that the batch's ledger is recorded.
      merge.targetFilter(Predicate.alwaysFalse());
    }
    MergeCondition newer = MergeCondition.always();
    String newerText = "true";
    if (seq != null) {
      merge.latestBy(seq);
      newer = MergeCondition.sourceGreaterThanTarget(seq);
      newerText = "source." + seq + " > target." + seq;
    }
    if (config.deleteWhen().isPresent()) {
      String sql = config.deleteWhen().get();
      BoundExpression deleteWhen = Expressions.bindPredicate(sql, batch.schema());
      MergeCondition isDelete = r -> deleteWhen.test(r.source(), context);
      MergeCondition guard = newer;
      merge.whenMatchedDelete(r -> guard.test(r) && isDelete.test(r), newerText + " AND (" + sql + ")")
          .whenMatchedUpdate(newer, newerText)
          .whenNotMatchedInsert(r -> !isDelete.test(r));
    } else {
      merge.whenMatchedUpdate(newer, newerText).whenNotMatchedInsert();
    }
    return merge.commit();
  }

  /** Without a sequence column, arrival order decides: the last row of each key; rows with a null key all stay. */
  private List<Row> lastPerKey(Batch batch) {
    int[] keys = SilverSchemas.positions(batch.schema(), config.keys());
    Map<List<Object>, Row> last = new LinkedHashMap<>();
    List<Row> out = new ArrayList<>();
    for (Row row : batch.rows()) {
      List<Object> key = SilverSchemas.key(row, keys);
      if (key == null) {
        out.add(row);
      } else {
        last.remove(key);
        last.put(key, row);
      }
    }
    out.addAll(last.values());
    return out;
  }
}
