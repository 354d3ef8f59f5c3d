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
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * SCD type 2: every version of a key is a row with {@code __start_at} (its sequence value), {@code __end_at}
 * (the sequence value of the next version or delete; null while current) and {@code __is_current}.
 *
 * <p>Each batch keeps, per key and sequence value, the change that wins by {@link VersionOrder} (the others
 * are superseded), reads the table's rows and the tombstones of the keys it carries, places the changes on
 * each key's timeline ({@link Scd2Timeline}) and MERGEs, in one commit keyed by (keys, {@code __start_at}),
 * the rows whose end or values changed, the removed versions and the new rows. So a newer version closes the
 * current row and becomes current; several versions in one batch are all kept as history; an older version
 * arriving late is inserted as a closed historical row between its neighbours (a tombstone is one of them, so
 * a late version of a deleted key never becomes current); a {@code delete_when} row newer than everything
 * known closes the current row, inserts nothing and leaves a tombstone; an older one is ignored. The read and
 * the MERGE are consistent because only this pipeline's query writes the table (the engine's runner lease),
 * and the MERGE's {@code txn} makes a re-run batch a no-op.
 */
final class Scd2Merge implements MergeStrategy {
  static final String START = "__start_at";
  static final String END = "__end_at";
  static final String CURRENT = "__is_current";

  private final Table table;
  private final MergeConfig config;
  private final String seq;
  private final Tombstones tombstones;

  Scd2Merge(Table table, MergeConfig config, Tombstones tombstones) {
    this.table = table;
    this.config = config;
    this.tombstones = tombstones;
    this.seq = config.sequenceBy().orElseThrow(() -> new IllegalArgumentException(
        "sink.merge.scd 2 needs sink.merge.sequence_by: the column whose value orders the versions of a key"));
  }

  @Override
  public StructType tableSchema(StructType stage) {
    int s = stage.indexOf(seq);
    if (s < 0) {
      throw new IllegalArgumentException("sink.merge.sequence_by '" + seq + "' is not a column of the silver stream,"
          + " whose columns are " + stage.fieldNames() + "; fix the name or add it under columns");
    }
    for (String c : List.of(START, END, CURRENT)) {
      if (stage.indexOf(c) >= 0) {
        throw new IllegalArgumentException("The silver stream already has a column '" + c + "', which SCD type 2"
            + " adds itself; rename or drop it under columns");
      }
    }
    DataType type = stage.field(s).type();
    return stage.add(START, type).add(END, type).add(CURRENT, PrimitiveType.BOOLEAN);
  }

  @Override
  public CommitResult merge(Batch batch, String appId, long batchId, EvalContext context, Map<String, Long> metrics) {
    StructType stage = batch.schema();
    StructType target = tableSchema(stage);
    MergeLedger ledger = new MergeLedger();
    Map<List<Object>, TreeMap<Object, Change>> events = new LinkedHashMap<>();
    for (Change c : Change.of(batch, config, context)) {
      TreeMap<Object, Change> key = events.computeIfAbsent(c.key(), k -> new TreeMap<>(VersionOrder.SEQUENCE));
      Change previous = key.get(c.sequence());
      if (previous == null || VersionOrder.laterWins(previous, c)) {
        key.put(c.sequence(), c);
      }
      if (previous != null) {
        ledger.superseded++;
      }
    }
    Instant batchTime = context.batchTimestamp();
    Map<List<Object>, TreeSet<Object>> deleted = tombstones.read(stage, events.keySet(), batchTime, appId, batchId);
    Map<List<Object>, List<Row>> existing = KeyedRows.read(table, target, config.keys(), events.keySet());
    Scd2Timeline timeline = new Scd2Timeline(stage.size());
    List<Row> out = new ArrayList<>();
    Map<List<Object>, Object> newTombstones = new LinkedHashMap<>();
    events.forEach((key, evs) -> {
      Scd2Timeline.Placed placed = timeline.place(evs, existing.getOrDefault(key, List.of()),
          deleted.getOrDefault(key, new TreeSet<>(VersionOrder.SEQUENCE)), ledger);
      out.addAll(placed.rows());
      if (placed.tombstone() != null) {
        newTombstones.put(key, placed.tombstone());
      }
    });
    ledger.into(metrics);
    tombstones.record(stage, newTombstones, batchTime, appId, batchId);
    List<String> on = new ArrayList<>(config.keys());
    on.add(START);
    MergeCondition removal = r -> timeline.isRemoval(r.source());
    Merge merge = table.newMerge().source(target, out).on(on.toArray(String[]::new)).txn(appId, batchId)
        .operation("STREAMING MERGE").metrics(metrics)
        .whenMatchedDelete(removal, "a delete at the version's own sequence value")
        .whenMatchedUpdate().whenNotMatchedInsert(r -> !removal.test(r));
    if (out.isEmpty()) {
      merge.targetFilter(Predicate.alwaysFalse());
    }
    return merge.commit();
  }
}
