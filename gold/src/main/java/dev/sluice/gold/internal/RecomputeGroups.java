package dev.sluice.gold.internal;

import dev.sluice.config.AggregateOutputMode;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchContext;
import dev.sluice.ingestion.BatchFunction;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.CommitResult;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sink of update and complete mode. Update: the groups touched by any change row of the batch
 * (pre-images, post-images, inserts and deletes, after joins, columns and filter) get their measures
 * either from the group state, which the change rows update (every measure invertible, see
 * {@link StateAggregation}), or recomputed from the snapshot rows of the batch; they are MERGEd into
 * gold by {@code _group_key}; touched groups that have no row left are deleted. After a dimension change
 * (or to seed the state) every group is recomputed, and groups not in the result are deleted. The state
 * is committed before gold. Complete: the whole result replaces the table. Either way one commit per
 * batch with {@code txn(<query id>, batchId)} and the batch's counters (the ledger) in its
 * {@code operationMetrics}.
 */
final class RecomputeGroups implements BatchFunction {
  private final dev.sluice.config.AggregateConfig config;
  private final AggregateOutputMode mode;
  private final Table gold;
  private final List<String> partitionBy;
  private final LedgerState ledger;
  private final GroupState state;
  private volatile CommitResult lastResult;

  /**
   * @param state the group totals when update mode follows the change feed, else null
   */
  RecomputeGroups(dev.sluice.config.AggregateConfig config, Table gold, List<String> partitionBy,
      LedgerState ledger, GroupState state) {
    this.config = config;
    this.mode = config.outputMode();
    this.gold = gold;
    this.partitionBy = List.copyOf(partitionBy);
    this.ledger = ledger;
    this.state = state;
  }

  @Override
  public void call(Batch batch, long batchId) {
    throw new UnsupportedOperationException("RecomputeGroups writes with the query's id: call(batch, context)");
  }

  @Override
  public boolean call(Batch batch, BatchContext context) {
    Map<String, Long> batchMetrics = context.metrics();
    String appId = context.appId();
    long batchId = context.batchId();
    long rowsIn = batchMetrics.getOrDefault(RowLedger.ROWS_IN, 0L);
    boolean full = batchMetrics.getOrDefault(SnapshotRows.FULL, 0L) > 0;
    boolean incremental = batchMetrics.getOrDefault(TagChanges.INCREMENTAL, 0L) > 0;
    if (rowsIn == 0 && !full) {
      batchMetrics.putAll(Ledger.of(0, 0, 0));
      if (incremental) {
        state.commit(batchId); // the next batch loads this version
        state.cleanUp(batchId);
      }
      return true;
    }
    GroupAggregation aggregation = new GroupAggregation(config, batch.schema());
    EvalContext eval = EvalContext.of(ledger.batchTimestamp());
    ChangeLedger changes = new ChangeLedger(aggregation, batch.schema());
    Map<String, Row> result;
    Set<String> deletes;
    if (state != null) {
      StateAggregation.Result r = new StateAggregation(aggregation).apply(batch, !incremental,
          state.store(batchId), eval, changes);
      result = r.rows();
      deletes = r.emptied();
    } else {
      int snapshot = batch.schema().indexOf(TagChanges.SNAPSHOT);
      List<Row> current = new ArrayList<>();
      Map<GroupId, String> touched = new java.util.HashMap<>();
      for (Row r : batch.rows()) {
        changes.count(r);
        if ((Boolean) r.get(snapshot)) {
          current.add(r);
        } else {
          for (GroupId id : aggregation.groupIdsOf(r)) {
            touched.computeIfAbsent(id, k -> aggregation.group(k, r).key());
          }
        }
      }
      result = aggregation.aggregate(current, full ? k -> true : touched::containsKey, eval);
      deletes = new HashSet<>(touched.values());
    }
    changes.report(rowsIn, batchMetrics);
    Map<String, Long> metrics = new TreeMap<>(batchMetrics);
    if (!gold.exists()) {
      gold.create(aggregation.outputSchema()).partitionBy(partitionBy.toArray(String[]::new)).ifNotExists().commit();
    }
    if (state != null) {
      state.commit(batchId);
    }
    if (mode == AggregateOutputMode.COMPLETE) {
      lastResult = gold.newOverwrite().schema(aggregation.outputSchema()).rows(new ArrayList<>(result.values()))
          .txn(appId, batchId).metrics(metrics).operation("STREAMING COMPLETE").commit();
      return !lastResult.skipped();
    }
    Set<String> gone = new HashSet<>(full ? existingGroups() : deletes);
    gone.removeAll(result.keySet());
    List<Row> source = new ArrayList<>(result.values());
    gone.forEach(k -> source.add(aggregation.deletionMarker(k)));
    lastResult = gold.newMerge().source(aggregation.outputSchema(), source).on(GroupAggregation.GROUP_KEY)
        .whenMatchedDelete(rows -> gone.contains((String) rows.source(GroupAggregation.GROUP_KEY)),
            "the group has no rows left")
        .whenMatchedUpdate()
        .whenNotMatchedInsert(rows -> !gone.contains((String) rows.source(GroupAggregation.GROUP_KEY)))
        .txn(appId, batchId).metrics(metrics).operation("STREAMING UPDATE").commit();
    if (state != null) {
      state.cleanUp(batchId);
    }
    return !lastResult.skipped();
  }

  private Set<String> existingGroups() {
    Set<String> out = new HashSet<>();
    try (CloseableIterator<Row> it = gold.latestSnapshot().scan().select(GroupAggregation.GROUP_KEY).build().rows()) {
      it.forEachRemaining(r -> out.add((String) r.get(0)));
    }
    return out;
  }

  /** The last commit (or skip), for tests. */
  CommitResult lastResult() {
    return lastResult;
  }
}
