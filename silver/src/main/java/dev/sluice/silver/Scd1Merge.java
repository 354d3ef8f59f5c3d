package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.CommitResult;
import dev.sluice.table.Merge;
import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * SCD type 1: one row per key holding its latest version. The batch's winner per key is chosen by
 * {@link VersionOrder}; it is then compared with the key's tombstones (a delete of an earlier batch, kept for
 * {@code tombstone_retention}) and the table's row, by the same rule, so an older version arriving later
 * never overwrites a newer one nor brings a deleted key back. A winning {@code delete_when} row (NULL counts as
 * false) deletes the table's row, is never inserted, and leaves a tombstone. Only the rows that change the
 * table reach the MERGE; the rest are counted superseded (lost to a newer version) or unchanged (the table
 * already holds exactly this row, or a delete of a key it does not have). Without {@code sequence_by} the last
 * row of a key wins and always overwrites, and no tombstones are kept.
 */
final class Scd1Merge implements MergeStrategy {
  private final Table table;
  private final MergeConfig config;
  private final Tombstones tombstones;

  Scd1Merge(Table table, MergeConfig config, Tombstones tombstones) {
    this.table = table;
    this.config = config;
    this.tombstones = tombstones;
  }

  @Override
  public StructType tableSchema(StructType stage) {
    return stage;
  }

  @Override
  public CommitResult merge(Batch batch, String appId, long batchId, EvalContext context, Map<String, Long> metrics) {
    StructType stage = batch.schema();
    MergeLedger ledger = new MergeLedger();
    Map<List<Object>, Change> winners = Change.latestPerKey(Change.of(batch, config, context), ledger);
    Instant batchTime = context.batchTimestamp();
    Map<List<Object>, TreeSet<Object>> deleted = config.sequenceBy().isPresent()
        ? tombstones.read(stage, winners.keySet(), batchTime, appId, batchId) : Map.of();
    Map<List<Object>, List<Row>> existing = KeyedRows.read(table, stage, config.keys(), winners.keySet());
    List<Row> landing = new ArrayList<>();
    Set<Row> deletes = Collections.newSetFromMap(new IdentityHashMap<>());
    Map<List<Object>, Object> newTombstones = new LinkedHashMap<>();
    for (Change c : winners.values()) {
      TreeSet<Object> t = deleted.get(c.key());
      Row current = existing.getOrDefault(c.key(), List.of()).stream().findFirst().orElse(null);
      if ((t != null && !VersionOrder.beats(c, t.last(), true))
          || (current != null && !VersionOrder.beats(c, sequence(current, stage), false))) {
        ledger.superseded++;
        continue;
      }
      if (c.delete() && config.sequenceBy().isPresent()) {
        newTombstones.put(c.key(), c.sequence());
      }
      if (current == null ? c.delete() : !c.delete() && Row.equalValues(current, c.row())) {
        ledger.unchanged++;
        continue;
      }
      ledger.written++;
      landing.add(c.row());
      if (c.delete()) {
        deletes.add(c.row());
      }
    }
    ledger.into(metrics);
    tombstones.record(stage, newTombstones, batchTime, appId, batchId);
    return commit(stage, landing, deletes, appId, batchId, metrics);
  }

  private Object sequence(Row row, StructType stage) {
    return config.sequenceBy().map(s -> row.get(stage.indexOf(s))).orElse(null);
  }

  /** One source row per key, each decided above: the clauses only apply what was decided. */
  private CommitResult commit(StructType stage, List<Row> landing, Set<Row> deletes, String appId, long batchId,
      Map<String, Long> metrics) {
    Merge merge = table.newMerge().source(stage, landing).on(config.keys().toArray(String[]::new))
        .txn(appId, batchId).operation("STREAMING MERGE").metrics(metrics);
    if (landing.isEmpty()) {
      // Nothing to match: skip reading the table, but still commit so that the batch's ledger is recorded.
      merge.targetFilter(Predicate.alwaysFalse());
    }
    MergeCondition isDelete = r -> deletes.contains(r.source());
    return merge.whenMatchedDelete(isDelete, "the newest version is a delete (delete_when)")
        .whenMatchedUpdate(MergeCondition.always(), "the source is the newest version")
        .whenNotMatchedInsert(r -> !isDelete.test(r))
        .commit();
  }
}
