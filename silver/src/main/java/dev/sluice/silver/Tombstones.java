package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The deletes a silver table remembers, so that a version older than a delete, arriving in a later batch, does
 * not bring its key back (as Databricks' AUTO CDC keeps tombstones). They live in a Delta table of their own,
 * {@code <silver table>/_tombstones} (a {@code _} folder, which Delta readers and VACUUM of the silver table
 * skip, so other engines see the silver table unchanged), one row per delete that took effect: the key
 * columns, {@code _sequence} (the delete's {@code sequence_by} value), {@code _deleted_at} (the timestamp of
 * the batch that recorded it) and the writer's {@code _app_id} and {@code _batch_id}.
 *
 * <p>Retention is processing time: a tombstone counts while {@code _deleted_at + tombstone_retention} is not
 * before the batch's timestamp (which a re-run of the batch reuses), and is removed after. Processing time,
 * because {@code sequence_by} may be any ordered value (a version number has no unit) and because how late
 * out-of-order data arrives is a matter of arrival time.
 *
 * <p>A batch appends its tombstones ({@code txn(<appId>:tombstones, batchId)}) before its MERGE; the reads of a
 * batch ignore the tombstones that batch wrote itself, so a batch re-run after a crash between the two commits
 * decides exactly as the first attempt did.
 */
final class Tombstones {
  static final String FOLDER = "_tombstones";
  static final String SEQUENCE = "_sequence";
  static final String DELETED_AT = "_deleted_at";
  static final String APP_ID = "_app_id";
  static final String BATCH_ID = "_batch_id";

  private final Table table;
  private final MergeConfig config;

  Tombstones(Table table, MergeConfig config) {
    this.table = table;
    this.config = config;
  }

  private StructType schema(StructType stage) {
    StructType out = StructType.empty();
    for (String k : config.keys()) {
      out = out.add(stage.field(stage.indexOf(k)));
    }
    String seq = config.sequenceBy().orElseThrow();
    return out.add(SEQUENCE, stage.field(stage.indexOf(seq)).type()).add(DELETED_AT, PrimitiveType.TIMESTAMP)
        .add(APP_ID, PrimitiveType.STRING).add(BATCH_ID, PrimitiveType.LONG);
  }

  /** The live tombstones' sequence values of these keys (earlier batches' only), ascending per key. */
  Map<List<Object>, TreeSet<Object>> read(StructType stage, Set<List<Object>> keys, Instant batchTime,
      String appId, long batchId) {
    Map<List<Object>, TreeSet<Object>> out = new HashMap<>();
    StructType schema = schema(stage);
    int n = config.keys().size();
    Instant cutoff = cutoff(batchTime);
    KeyedRows.read(table, schema, config.keys(), keys).forEach((key, rows) -> {
      for (Row r : rows) {
        boolean own = appId.equals(r.get(n + 2)) && Long.valueOf(batchId).equals(r.get(n + 3));
        if (!own && !((Instant) r.get(n + 1)).isBefore(cutoff)) {
          out.computeIfAbsent(key, k -> new TreeSet<>(VersionOrder.SEQUENCE)).add(r.get(n));
        }
      }
    });
    return out;
  }

  /** Records the batch's deletes that took effect (key → sequence value) and removes expired tombstones. */
  void record(StructType stage, Map<List<Object>, Object> deletes, Instant batchTime, String appId,
      long batchId) {
    if (deletes.isEmpty()) {
      return;
    }
    StructType schema = schema(stage);
    table.create(schema).ifNotExists().commit();
    table.newDelete().where(Predicate.lt(DELETED_AT, cutoff(batchTime))).operation("TOMBSTONE GC").commit();
    List<Row> rows = new ArrayList<>();
    deletes.forEach((key, seq) -> {
      List<Object> values = new ArrayList<>(key);
      values.add(seq);
      values.add(batchTime);
      values.add(appId);
      values.add(batchId);
      rows.add(Row.of(values.toArray()));
    });
    table.newAppend().schema(schema).rows(rows).txn(appId + ":tombstones", batchId).commit();
  }

  private Instant cutoff(Instant batchTime) {
    return batchTime.minus(config.tombstoneRetention().duration());
  }
}
