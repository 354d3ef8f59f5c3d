package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.table.CommitResult;
import dev.sluice.table.LocatedRow;
import dev.sluice.table.Merge;
import dev.sluice.table.MergeCondition;
import dev.sluice.table.Table;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.Snapshot;
import dev.sluice.table.data.CloseableIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
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
  /** The columns a routed row of the table carries besides its own: its data file and row index there. */
  private static final String FILE_COLUMN = "__sluice_file";
  private static final String ROW_COLUMN = "__sluice_row";

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
    Instant batchTime = context.batchTimestamp();
    // One snapshot for every partition: inserts are decided against it, and the MERGE checks it still holds.
    Snapshot snapshot = table.exists() ? table.latestSnapshot() : null;
    int[] keys = SilverSchemas.positions(stage, config.keys());
    KeyPartitions parts = KeyPartitions.of(batch, keys);
    int[] changeColumns = changeColumns(stage);
    Decisions decided = new Decisions(batch.size());
    Current existing = new Current(stage, snapshot, parts);
    for (int p = 0; p < parts.count(); p++) {
      Winners winners = Winners.of(changes(parts.rows(p, changeColumns), stage, context), ledger);
      Map<List<Object>, TreeSet<Object>> deleted = config.sequenceBy().isPresent()
          ? tombstones.read(stage, winners.keys(), batchTime, appId, batchId) : Map.of();
      existing.attach(p, winners);
      for (int i = 0; i < winners.size(); i++) {
        Change c = winners.change(i);
        decide(c, deleted.isEmpty() ? null : deleted.get(c.key()), winners.current(i), existing, decided, ledger);
      }
    }
    decided.readWholeRows(batch);
    existing.settleTies(decided, ledger);
    ledger.into(metrics);
    tombstones.record(stage, decided.tombstones, batchTime, appId, batchId);
    return commit(batch, snapshot, decided, existing, appId, batchId, metrics);
  }

  /**
   * The columns a change is decided on: the keys, the sequence and what {@code delete_when} reads. The winners'
   * whole rows are read later, by position, for those that reach the MERGE (inserts are read from the batch again
   * anyway), so a pass over a spilled batch's partition decodes these alone and the changes held are small. Without
   * {@code sequence_by}, null: whole rows, since a winner is then compared with the table's whole row.
   */
  private int[] changeColumns(StructType stage) {
    if (config.sequenceBy().isEmpty()) {
      return null;
    }
    java.util.SortedSet<Integer> columns = new TreeSet<>();
    for (int k : SilverSchemas.positions(stage, config.keys())) {
      columns.add(k);
    }
    columns.add(stage.indexOf(config.sequenceBy().get()));
    config.deleteWhen().ifPresent(sql -> Expressions.bindPredicate(sql, stage).referencedColumns()
        .forEach(c -> columns.add(stage.indexOf(c))));
    return columns.stream().mapToInt(Integer::intValue).toArray();
  }

  /** A partition's rows (with their batch position last) as changes, in arrival order. */
  private List<Change> changes(Iterable<Row> rows, StructType stage, EvalContext context) {
    int[] keys = SilverSchemas.positions(stage, config.keys());
    int seq = config.sequenceBy().map(stage::indexOf).orElse(-1);
    BoundExpression deleteWhen = config.deleteWhen().map(sql -> Expressions.bindPredicate(sql, stage)).orElse(null);
    List<Change> out = rows instanceof java.util.Collection<?> c ? new ArrayList<>(c.size()) : new ArrayList<>();
    for (Row row : rows) {
      out.add(new Change(row, SilverSchemas.key(row, keys), seq < 0 ? null : row.get(seq),
          deleteWhen != null && deleteWhen.test(row, context)));
    }
    return out;
  }

  /** Decides a winner against its tombstones and the table's row (ties on the sequence wait for whole rows). */
  private void decide(Change c, TreeSet<Object> tombstones, Row current, Current existing, Decisions decided,
      MergeLedger ledger) {
    if ((tombstones != null && !VersionOrder.beats(c, tombstones.last(), true))
        || (current != null && !VersionOrder.beats(c, existing.sequence(current), false))) {
      ledger.superseded++;
      return;
    }
    if (c.delete() && config.sequenceBy().isPresent()) {
      decided.tombstones.put(c.key(), c.sequence());
    }
    if (current == null) {
      if (c.delete()) {
        ledger.unchanged++;
      } else {
        ledger.written++;
        decided.inserts.set(position(c.row()));
      }
    } else if (c.delete()) {
      ledger.written++;
      decided.matches.set(position(c.row()));
      decided.deletes.set(position(c.row()));
    } else if (existing.tie(c, current)) {
      existing.ties.add(c);
      decided.ties.set(position(c.row()));
    } else {
      decided.written(c, current, existing, ledger);
    }
  }

  private static int position(Row row) {
    return KeyPartitions.positionOf(row);
  }

  /** A row without its batch position. */
  private static Row strip(Row row) {
    return Row.of(java.util.Arrays.copyOf(row.toArray(), row.size() - 1));
  }

  /**
   * What the batch does to the table, by batch position: inserts (read from the batch again, in its order, when
   * written), the rows that match a table row (updates and deletes, held whole for the MERGE's key index once
   * {@link #readWholeRows} read them) and the ties on the sequence (settled on their whole rows).
   */
  private static final class Decisions {
    /** Rows read by position when fewer than 1 in this many of the batch's (up to the last wanted one) are wanted. */
    private static final int FEW = 4;
    final BitSet inserts;
    final BitSet matches;
    final BitSet deletes;
    final BitSet ties;
    final List<Row> matched = new ArrayList<>();
    final Set<Row> deleted = Collections.newSetFromMap(new IdentityHashMap<>());
    final Map<Integer, Row> tied = new HashMap<>();
    final Map<List<Object>, Object> tombstones = new LinkedHashMap<>();

    Decisions(int rows) {
      this.inserts = new BitSet(rows);
      this.matches = new BitSet(rows);
      this.deletes = new BitSet(rows);
      this.ties = new BitSet(rows);
    }

    /** An upsert of a key the table holds: written unless the table already holds exactly this row. */
    void written(Change c, Row whole, Current existing, MergeLedger ledger) {
      if (existing.sameRow(strip(c.row()), whole)) {
        ledger.unchanged++;
      } else {
        ledger.written++;
        matches.set(position(c.row()));
      }
    }

    /**
     * The whole rows of the matches and ties (none when there are none): each by its position when they are few and
     * the batch is in memory (a pass made every row of the batch, all its columns, to keep the ~1 in 10 an increment
     * of updates matches), else in one pass.
     */
    void readWholeRows(Batch batch) {
      if (matches.isEmpty() && ties.isEmpty()) {
        return;
      }
      int last = Math.max(matches.length(), ties.length());
      if (!batch.spilled() && (matches.cardinality() + ties.cardinality()) * FEW < last) {
        List<Row> rows = batch.rows();
        BitSet wanted = (BitSet) matches.clone();
        wanted.or(ties);
        for (int position = wanted.nextSetBit(0); position >= 0; position = wanted.nextSetBit(position + 1)) {
          take(position, rows.get(position));
        }
        return;
      }
      int position = 0;
      for (java.util.Iterator<Row> rows = batch.iterator(); position < last; position++) {
        take(position, rows.next());
      }
    }

    private void take(int position, Row row) {
      if (matches.get(position)) {
        matched.add(row);
        if (deletes.get(position)) {
          deleted.add(row);
        }
      }
      if (ties.get(position)) {
        tied.put(position, row);
      }
    }
  }

  /**
   * The table's rows of the batch's keys. With {@code sequence_by} only the key and sequence columns are read: a
   * winner that beats the table's version can equal its row only with the same sequence value (it is a column of
   * the row), so whole rows are read for those ties alone, once for the batch. Without it every winner may equal
   * the table's row. A batch of one partition reads the rows of its keys; a batch of several reads, once, the rows
   * within its key range and sorts them into the same partitions (so the table is scanned once, whatever the
   * batch's size).
   */
  private final class Current {
    private final StructType stage;
    private final StructType read;
    private final Snapshot snapshot;
    private final int sequence;
    private final List<Batch> routed;
    // Where the table's rows of the batch's keys were found, so that the MERGE needn't look for them again.
    private final Map<String, BitSet> locations = new HashMap<>();
    final List<Change> ties = new ArrayList<>();

    Current(StructType stage, Snapshot snapshot, KeyPartitions parts) {
      this.stage = stage;
      this.snapshot = snapshot;
      StructType columns = stage;
      if (config.sequenceBy().isPresent()) {
        columns = StructType.empty();
        for (String k : config.keys()) {
          columns = columns.add(stage.field(stage.indexOf(k)));
        }
        columns = columns.add(stage.field(stage.indexOf(config.sequenceBy().get())));
      }
      this.read = columns;
      this.sequence = config.sequenceBy().map(read::indexOf).orElse(-1);
      this.routed = parts.count() == 1 || snapshot == null ? null : route(parts);
    }

    private List<Batch> route(KeyPartitions parts) {
      List<Predicate> range = new ArrayList<>();
      for (int i = 0; i < config.keys().size(); i++) {
        if (parts.min()[i] != null) {
          range.add(Predicate.ge(config.keys().get(i), parts.min()[i]));
          range.add(Predicate.le(config.keys().get(i), parts.max()[i]));
        }
      }
      long budget = Math.max(1 << 20, Batch.memoryBudget() / parts.count());
      Batch.Builder[] builders = new Batch.Builder[parts.count()];
      StructType located = read.add(FILE_COLUMN, PrimitiveType.STRING).add(ROW_COLUMN, PrimitiveType.LONG);
      for (int p = 0; p < builders.length; p++) {
        builders[p] = Batch.builder(located, budget);
      }
      int[] keyPos = SilverSchemas.positions(read, config.keys());
      try (CloseableIterator<LocatedRow> rows = snapshot.scan().select(read.fieldNames())
          .filter(range.isEmpty() ? Predicate.alwaysTrue() : Predicate.and(range)).build().locatedRows()) {
        while (rows.hasNext()) {
          LocatedRow at = rows.next();
          List<Object> key = SilverSchemas.key(at.row(), keyPos);
          // Most of the table's rows are of keys the batch doesn't have: only those it may have are kept.
          if (key != null && parts.mightHold(key)) {
            Object[] values = Arrays.copyOf(at.row().toArray(), read.size() + 2);
            values[read.size()] = at.file();
            values[read.size() + 1] = at.rowIndex();
            builders[KeyPartitions.of(key, builders.length)].add(Row.of(values));
          }
        }
      }
      List<Batch> out = new ArrayList<>();
      for (Batch.Builder b : builders) {
        out.add(b.build());
      }
      return out;
    }

    /** Notes the table's row of each winner's key (key and sequence columns only, with {@code sequence_by}). */
    void attach(int p, Winners winners) {
      if (routed == null) {
        KeyedRows.read(snapshot, read, config.keys(), winners.keys(), locations)
            .forEach((k, rows) -> winners.attach(k, rows.get(0)));
        return;
      }
      winners.attach(routed.get(p).rows(), SilverSchemas.positions(read, config.keys()), this::located);
    }

    /** A routed row of a winner's key: where it is stored is noted (for the MERGE), the row returned without it. */
    private Row located(Row routedRow) {
      int n = read.size();
      String file = (String) routedRow.get(n);
      locations.computeIfAbsent(file, f -> new BitSet()).set(Math.toIntExact((Long) routedRow.get(n + 1)));
      return Row.of(Arrays.copyOf(routedRow.toArray(), n));
    }

    /** Per data file, the row indexes of the table's rows of the batch's keys. */
    Map<String, BitSet> locations() {
      return locations;
    }

    Object sequence(Row current) {
      return sequence < 0 ? null : current.get(sequence);
    }

    /** Whether the winner equals the table's version by sequence, so that only whole rows tell if it changes. */
    boolean tie(Change c, Row current) {
      return sequence >= 0 && VersionOrder.SEQUENCE.compare(c.sequence(), current.get(sequence)) == 0;
    }

    /** Whether {@code row} equals the table's whole row {@code whole} (never, with a sequence that differs). */
    boolean sameRow(Row row, Row whole) {
      return sequence < 0 && Row.equalValues(whole, row);
    }

    /** Decides the ties on the sequence, reading their whole rows in one pass. */
    void settleTies(Decisions decided, MergeLedger ledger) {
      if (ties.isEmpty()) {
        return;
      }
      Set<List<Object>> keys = new java.util.HashSet<>();
      ties.forEach(c -> keys.add(c.key()));
      Map<List<Object>, List<Row>> whole = KeyedRows.read(snapshot, stage, config.keys(), keys);
      for (Change c : ties) {
        Row row = decided.tied.get(position(c.row()));
        List<Row> found = whole.get(c.key());
        if (found != null && Row.equalValues(found.get(0), row)) {
          ledger.unchanged++;
        } else {
          ledger.written++;
          decided.matched.add(row);
        }
      }
    }
  }

  /**
   * One source row per key, each decided above: the clauses only apply what was decided. The inserts go to the MERGE
   * as rows found absent in the snapshot read, in two shares written in parallel, read from the batch again.
   */
  private CommitResult commit(Batch batch, Snapshot snapshot, Decisions decided, Current existing, String appId,
      long batchId, Map<String, Long> metrics) {
    StructType stage = batch.schema();
    Merge merge = table.newMerge().source(stage, decided.matched).on(config.keys().toArray(String[]::new))
        .txn(appId, batchId).operation("STREAMING MERGE").metrics(metrics);
    if (snapshot != null && existing.locations() != null) {
      // The rows of the matched keys were found above: the MERGE needn't read the candidates' keys again.
      merge.targetRowsAt(snapshot.version(), existing.locations());
    }
    if (decided.matched.isEmpty()) {
      // Nothing to match: skip reading the table, but still commit so that the batch's ledger is recorded.
      merge.targetFilter(Predicate.alwaysFalse());
    }
    int inserts = decided.inserts.cardinality();
    if (inserts > 0) {
      merge.insertAbsent(snapshot == null ? -1 : snapshot.version(), insertShares(batch, decided.inserts, inserts));
    }
    Set<Row> deletes = decided.deleted;
    MergeCondition isDelete = r -> deletes.contains(r.source());
    return merge.whenMatchedDelete(isDelete, "the newest version is a delete (delete_when)")
        .whenMatchedUpdate(MergeCondition.always(), "the source is the newest version")
        .whenNotMatchedInsert(r -> !isDelete.test(r))
        .commit();
  }

  /** The inserted rows in batch order, in up to two shares of contiguous batch positions. */
  private static List<Iterable<Row>> insertShares(Batch batch, BitSet inserts, int count) {
    int shares = count >= 50_000 ? 2 : 1;
    List<Iterable<Row>> out = new ArrayList<>();
    int from = 0;
    for (int s = 0; s < shares; s++) {
      int to = s == shares - 1 ? batch.size() : nthSet(inserts, from, count / shares);
      int start = from;
      out.add(() -> selected(batch.rows().subList(start, to).iterator(), inserts, start));
      from = to;
    }
    return out;
  }

  /** The position after the {@code n}-th set bit at or after {@code from}. */
  private static int nthSet(BitSet bits, int from, int n) {
    int at = from - 1;
    for (int i = 0; i < n; i++) {
      at = bits.nextSetBit(at + 1);
    }
    return at + 1;
  }

  private static java.util.Iterator<Row> selected(java.util.Iterator<Row> rows, BitSet inserts, int first) {
    return new java.util.Iterator<>() {
      private int position = first;
      private Row next = advance();

      private Row advance() {
        while (rows.hasNext()) {
          Row r = rows.next();
          if (inserts.get(position++)) {
            return r;
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public Row next() {
        if (next == null) {
          throw new java.util.NoSuchElementException();
        }
        Row r = next;
        next = advance();
        return r;
      }
    };
  }
}
