package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.CommitResult;
import dev.sluice.table.Merge;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * SCD type 2: every version of a key is a row with {@code __start_at} (its sequence value), {@code __end_at}
 * (the sequence value of the next version or delete; null while current) and {@code __is_current}.
 *
 * <p>Each batch reads the table's rows of the keys it carries, places the new versions on each key's
 * timeline and MERGEs, in one commit keyed by (keys, {@code __start_at}), the rows whose end changed and the
 * new rows. So a newer version closes the current row and becomes current; several versions in one batch
 * are all kept as history; an older version arriving late is inserted as a closed historical row between
 * its neighbours (and closes the one before it); a version already present (same sequence value) is
 * ignored. A {@code delete_when} row newer than everything known closes the current row and inserts
 * nothing; an older one is ignored. Rows with a null sequence value are ignored; rows with a null key are
 * inserted as current rows (they match nothing). The read and the MERGE are consistent because only this
 * pipeline's query writes the table (the engine's runner lease), and the MERGE's {@code txn} makes a re-run
 * batch a no-op.
 */
final class Scd2Merge implements MergeStrategy {
  static final String START = "__start_at";
  static final String END = "__end_at";
  static final String CURRENT = "__is_current";

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Comparator<Object> ORDER = (a, b) -> ((Comparable) a).compareTo(b);

  private final Table table;
  private final MergeConfig config;
  private final String seq;

  Scd2Merge(Table table, MergeConfig config) {
    this.table = table;
    this.config = config;
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

  /** One new version (or delete) of a key. */
  private record Event(Row row, boolean delete) {}

  @Override
  public CommitResult merge(Batch batch, String appId, long batchId, EvalContext context, Map<String, Long> metrics) {
    StructType stage = batch.schema();
    StructType target = tableSchema(stage);
    int[] keyPos = SilverSchemas.positions(stage, config.keys());
    int seqPos = stage.indexOf(seq);
    BoundExpression deleteWhen = config.deleteWhen().map(sql -> Expressions.bindPredicate(sql, stage)).orElse(null);
    Map<List<Object>, TreeMap<Object, Event>> events = new LinkedHashMap<>();
    List<Row> out = new ArrayList<>();
    for (Row row : batch.rows()) {
      Object s = row.get(seqPos);
      if (s == null) {
        continue;
      }
      boolean delete = deleteWhen != null && deleteWhen.test(row, context);
      List<Object> key = SilverSchemas.key(row, keyPos);
      if (key == null) {
        if (!delete) {
          out.add(version(row, s, null));
        }
        continue;
      }
      // The first row of a (key, sequence value) in arrival order stands for that version.
      events.computeIfAbsent(key, k -> new TreeMap<>(ORDER)).putIfAbsent(s, new Event(row, delete));
    }
    Map<List<Object>, List<Row>> existing = readExisting(events.keySet(), target, stage.size());
    events.forEach((key, evs) -> out.addAll(place(evs, existing.getOrDefault(key, List.of()), stage.size())));
    List<String> on = new ArrayList<>(config.keys());
    on.add(START);
    Merge merge = table.newMerge().source(target, out).on(on.toArray(String[]::new)).txn(appId, batchId)
        .operation("STREAMING MERGE").metrics(metrics).whenMatchedUpdate().whenNotMatchedInsert();
    if (out.isEmpty()) {
      merge.targetFilter(Predicate.alwaysFalse());
    }
    return merge.commit();
  }

  /** The changed and new rows of one key, given its new events and its rows in the table. */
  private static List<Row> place(TreeMap<Object, Event> events, List<Row> existing, int stageSize) {
    Set<Object> starts = new TreeSet<>(ORDER);
    TreeSet<Object> boundaries = new TreeSet<>(ORDER);
    Object latestKnown = null;
    for (Row x : existing) {
      Object start = x.get(stageSize);
      Object end = x.get(stageSize + 1);
      starts.add(start);
      boundaries.add(start);
      latestKnown = latestKnown == null || ORDER.compare(start, latestKnown) > 0 ? start : latestKnown;
      if (end != null) {
        boundaries.add(end);
        latestKnown = ORDER.compare(end, latestKnown) > 0 ? end : latestKnown;
      }
    }
    Object known = latestKnown;
    events.entrySet().removeIf(e -> starts.contains(e.getKey())
        || (e.getValue().delete() && known != null && ORDER.compare(e.getKey(), known) <= 0));
    boundaries.addAll(events.keySet());
    List<Row> out = new ArrayList<>();
    for (Row x : existing) {
      Object next = events.higherKey(x.get(stageSize));
      Object end = x.get(stageSize + 1);
      if (next != null && (end == null || ORDER.compare(next, end) < 0)) {
        out.add(closed(x, next, stageSize));
      }
    }
    events.forEach((s, e) -> {
      if (!e.delete()) {
        out.add(version(e.row(), s, boundaries.higher(s)));
      }
    });
    return out;
  }

  private static Row version(Row row, Object start, Object end) {
    Object[] values = new Object[row.size() + 3];
    for (int i = 0; i < row.size(); i++) {
      values[i] = row.get(i);
    }
    values[row.size()] = start;
    values[row.size() + 1] = end;
    values[row.size() + 2] = end == null;
    return Row.of(values);
  }

  private static Row closed(Row current, Object end, int stageSize) {
    Object[] values = current.toArray();
    values[stageSize + 1] = end;
    values[stageSize + 2] = false;
    return Row.of(values);
  }

  /** The table's rows of these keys, grouped by key. */
  private Map<List<Object>, List<Row>> readExisting(Set<List<Object>> keys, StructType target, int stageSize) {
    Map<List<Object>, List<Row>> out = new HashMap<>();
    if (keys.isEmpty()) {
      return out;
    }
    List<Predicate> parts = new ArrayList<>();
    for (int i = 0; i < config.keys().size(); i++) {
      Set<Object> values = new LinkedHashSet<>();
      for (List<Object> k : keys) {
        values.add(k.get(i));
      }
      parts.add(Predicate.in(config.keys().get(i), new ArrayList<>(values)));
    }
    int[] keyPos = SilverSchemas.positions(target, config.keys());
    try (CloseableIterator<Row> rows = table.latestSnapshot().scan().select(target.fieldNames())
        .filter(Predicate.and(parts)).build().rows()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        List<Object> key = SilverSchemas.key(row, keyPos);
        if (keys.contains(key)) {
          out.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
      }
    }
    return out;
  }
}
