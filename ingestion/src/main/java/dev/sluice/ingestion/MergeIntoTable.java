package dev.sluice.ingestion;

import dev.sluice.table.CommitResult;
import dev.sluice.table.Merge;
import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A {@link BatchFunction} that MERGEs each micro-batch into a Delta table by key, idempotently: the
 * MERGE carries {@code txn(<query id>:<appId>, batchId)} ({@link BatchContext#appId(String)}), so a re-run batch
 * is skipped, and a query started on a new checkpoint (new query id) is never mistaken for the old one. Default
 * clauses: update matched rows, insert the others; {@link #customize} replaces them.
 */
public final class MergeIntoTable implements BatchFunction {
  private final Table table;
  private final String appId;
  private final List<String> keys;
  private String latestBy;
  private UnaryOperator<Merge> clauses = m -> m.whenMatchedUpdate().whenNotMatchedInsert();
  private volatile CommitResult lastResult;

  private MergeIntoTable(Table table, String appId, List<String> keys) {
    this.table = table;
    this.appId = appId;
    this.keys = List.copyOf(keys);
  }

  /**
   * @param appId names this writer within its query (e.g. the table); the query id is put before it
   */
  public static MergeIntoTable into(Table table, String appId, String... keys) {
    Objects.requireNonNull(appId, "appId");
    if (keys.length == 0) {
      throw new IllegalArgumentException("MergeIntoTable needs at least one key column");
    }
    return new MergeIntoTable(table, appId, List.of(keys));
  }

  /** Several rows per key in a batch: keep the one with the greatest {@code column}. */
  public MergeIntoTable latestBy(String column) {
    this.latestBy = column;
    return this;
  }

  /** Only update a matched row when the source is newer by {@code column}. */
  public MergeIntoTable updateWhenNewer(String column) {
    this.clauses = m -> m.whenMatchedUpdate(MergeCondition.sourceGreaterThanTarget(column),
        "source." + column + " > target." + column).whenNotMatchedInsert();
    return this;
  }

  /** Replaces the MERGE clauses. */
  public MergeIntoTable customize(UnaryOperator<Merge> value) {
    this.clauses = value;
    return this;
  }

  /** Outside a query (no query id): MERGEs with {@code txn(appId, batchId)}. */
  @Override
  public void call(Batch batch, long batchId) {
    merge(batch, appId, batchId);
  }

  @Override
  public boolean call(Batch batch, BatchContext context) {
    return !merge(batch, context.appId(appId), context.batchId()).skipped();
  }

  private CommitResult merge(Batch batch, String txnAppId, long batchId) {
    if (!table.exists()) {
      table.create(batch.schema()).ifNotExists().commit();
    }
    Merge merge = table.newMerge().source(batch.schema(), batch::iterator).on(keys.toArray(String[]::new))
        .txn(txnAppId, batchId).operation("STREAMING MERGE");
    if (latestBy != null) {
      merge.latestBy(latestBy);
    }
    lastResult = clauses.apply(merge).commit();
    return lastResult;
  }

  /** The result of the last MERGE (or skip), for progress and tests. */
  public CommitResult lastResult() {
    return lastResult;
  }
}
