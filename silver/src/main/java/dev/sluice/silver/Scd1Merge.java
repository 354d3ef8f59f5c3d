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
    Current existing = new Current(stage, winners);
    List<Row> landing = new ArrayList<>();
    Set<Row> deletes = Collections.newSetFromMap(new IdentityHashMap<>());
    Map<List<Object>, Object> newTombstones = new LinkedHashMap<>();
    for (Change c : winners.values()) {
      TreeSet<Object> t = deleted.get(c.key());
      Row current = existing.of(c.key());
      if ((t != null && !VersionOrder.beats(c, t.last(), true))
          || (current != null && !VersionOrder.beats(c, existing.sequence(current), false))) {
        ledger.superseded++;
        continue;
      }
      if (c.delete() && config.sequenceBy().isPresent()) {
        newTombstones.put(c.key(), c.sequence());
      }
      if (current == null ? c.delete() : !c.delete() && existing.sameRow(c, current)) {
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

  /**
   * The table's rows of the batch's keys. With {@code sequence_by} only the key and sequence columns are read: a
   * winner that beats the table's version can equal its row only with the same sequence value (it is a column of
   * the row), so whole rows are read for those ties alone. Without it every winner may equal the table's row.
   */
  private final class Current {
    private final StructType stage;
    private final Map<List<Object>, List<Row>> rows;
    private final int sequence;
    private Map<List<Object>, List<Row>> whole;

    Current(StructType stage, Map<List<Object>, Change> winners) {
      this.stage = stage;
      StructType read = stage;
      if (config.sequenceBy().isPresent()) {
        read = StructType.empty();
        for (String k : config.keys()) {
          read = read.add(stage.field(stage.indexOf(k)));
        }
        read = read.add(stage.field(stage.indexOf(config.sequenceBy().get())));
      }
      this.sequence = config.sequenceBy().map(read::indexOf).orElse(-1);
      this.rows = KeyedRows.read(table, read, config.keys(), winners.keySet());
      if (sequence < 0) {
        whole = rows;
      } else {
        Set<List<Object>> ties = new java.util.HashSet<>();
        rows.forEach((key, found) -> {
          Change c = winners.get(key);
          if (!c.delete() && VersionOrder.SEQUENCE.compare(c.sequence(), found.get(0).get(sequence)) == 0) {
            ties.add(key);
          }
        });
        whole = ties.isEmpty() ? Map.of() : KeyedRows.read(table, stage, config.keys(), ties);
      }
    }

    /** The table's row of {@code key} (key and sequence columns only, with {@code sequence_by}), or null. */
    Row of(List<Object> key) {
      List<Row> found = rows.get(key);
      return found == null ? null : found.get(0);
    }

    Object sequence(Row current) {
      return sequence < 0 ? null : current.get(sequence);
    }

    /** Whether the winner's row equals the table's whole row of its key. */
    boolean sameRow(Change c, Row current) {
      if (sequence >= 0 && VersionOrder.SEQUENCE.compare(c.sequence(), sequence(current)) != 0) {
        return false;
      }
      List<Row> found = whole.get(c.key());
      return found != null && Row.equalValues(found.get(0), c.row());
    }
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
