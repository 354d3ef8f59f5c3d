package dev.sluice.gold.internal;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Reads the rows of silver's snapshot at the version of a batch's last change that the batch's groups
 * need: all rows in complete mode or after a dimension table changed (counter {@code gold.fullRecompute}
 * = 1), otherwise, when the window column is a silver column, only rows whose event time falls in a
 * window that a change row falls in (windows of other times cannot be touched), else all rows.
 */
final class SnapshotRows {
  static final String FULL = "gold.fullRecompute";
  static final String VERSION = "gold.snapshotVersion";
  static final String ROWS = "gold.snapshotRows";
  private static final String CHANGE_TYPE = "_change_type";
  private static final String COMMIT_VERSION = "_commit_version";
  private static final String COMMIT_TIMESTAMP = "_commit_timestamp";

  private final Table silver;
  private final Table gold;
  private final boolean complete;
  private final String pruneColumn;
  private final long sizeMicros;
  private final long slideMicros;
  private final List<Dimension> dimensions;

  /**
   * @param pruneColumn the silver column the window is on, or null when rows can't be pruned by time
   */
  SnapshotRows(Table silver, Table gold, boolean complete, String pruneColumn, long sizeMicros, long slideMicros,
      List<Dimension> dimensions) {
    this.silver = silver;
    this.gold = gold;
    this.complete = complete;
    this.pruneColumn = pruneColumn;
    this.sizeMicros = sizeMicros;
    this.slideMicros = slideMicros;
    this.dimensions = List.copyOf(dimensions);
  }

  /**
   * Whether the batch (with change rows) must recompute every group: complete mode, or a dimension
   * table has a new version (recorded as {@code gold.dimensionVersion.<index>}).
   */
  boolean recomputeAll(BatchTransformer.Context context) {
    return complete | dimensionsChanged(context);
  }

  /**
   * The snapshot rows shaped as {@code schema} (the change schema plus the two tag columns): all of
   * them when {@code full}, else those of the change rows' windows.
   */
  List<Row> rows(Batch changes, StructType schema, BatchTransformer.Context context, boolean full) {
    if (changes.size() == 0) {
      return List.of();
    }
    StructType input = changes.schema();
    int versionAt = input.indexOf(COMMIT_VERSION);
    long version = changes.rows().stream().mapToLong(r -> (Long) r.get(versionAt)).max().orElseThrow();
    context.count(FULL, full ? 1 : 0);
    context.count(VERSION, version);
    Predicate filter = full || pruneColumn == null ? Predicate.alwaysTrue() : timeRanges(changes);
    Snapshot snapshot = silver.snapshotAt(version);
    List<String> columns = new ArrayList<>();
    for (String name : input.fieldNames()) {
      if (!name.equals(CHANGE_TYPE) && !name.equals(COMMIT_VERSION) && !name.equals(COMMIT_TIMESTAMP)
          && snapshot.schema().indexOf(name) >= 0) {
        columns.add(name);
      }
    }
    int[] positions = columns.stream().mapToInt(input::indexOf).toArray();
    int timestampAt = input.indexOf(COMMIT_TIMESTAMP);
    List<Row> out = new ArrayList<>();
    try (CloseableIterator<Row> it = snapshot.scan().select(columns).filter(filter).build().rows()) {
      while (it.hasNext()) {
        Row r = it.next();
        Object[] values = new Object[schema.size()];
        for (int i = 0; i < positions.length; i++) {
          values[positions[i]] = r.get(i);
        }
        values[versionAt] = version;
        values[timestampAt] = snapshot.timestamp();
        values[input.size()] = Boolean.TRUE;
        values[input.size() + 1] = -1L;
        out.add(Row.of(values));
      }
    }
    context.count(ROWS, out.size());
    return out;
  }

  /** Records each dimension's version; true when one differs from what the last gold commit recorded. */
  private boolean dimensionsChanged(BatchTransformer.Context context) {
    if (dimensions.isEmpty()) {
      return false;
    }
    Map<String, String> previous = lastGoldMetrics();
    boolean changed = false;
    for (Dimension d : dimensions) {
      long now = d.latestVersion();
      context.count(d.metric(), now);
      changed |= previous != null && !Long.toString(now).equals(previous.get(d.metric()));
    }
    return changed;
  }

  private Map<String, String> lastGoldMetrics() {
    if (!gold.exists()) {
      return null;
    }
    return gold.history(20).stream().filter(h -> h.operationMetrics().containsKey(RowLedger.ROWS_IN))
        .max(Comparator.comparingLong(HistoryEntry::version)).map(HistoryEntry::operationMetrics).orElse(null);
  }

  /** Event times of the windows the change rows fall in, as merged [start, end) ranges. */
  private Predicate timeRanges(Batch changes) {
    int at = changes.schema().indexOf(pruneColumn);
    List<long[]> ranges = new ArrayList<>();
    for (Row r : changes.rows()) {
      Instant t = (Instant) r.get(at);
      if (t != null) {
        List<Long> starts = GroupAggregation.windowStarts(GroupAggregation.micros(t), sizeMicros, slideMicros);
        ranges.add(new long[] {starts.get(starts.size() - 1), starts.get(0) + sizeMicros});
      }
    }
    ranges.sort(Comparator.comparingLong(a -> a[0]));
    List<Predicate> terms = new ArrayList<>();
    long[] open = null;
    for (long[] r : ranges) {
      if (open != null && r[0] <= open[1]) {
        open[1] = Math.max(open[1], r[1]);
        continue;
      }
      if (open != null) {
        terms.add(range(open));
      }
      open = r.clone();
    }
    if (open != null) {
      terms.add(range(open));
    }
    return terms.isEmpty() ? Predicate.alwaysFalse() : Predicate.or(terms);
  }

  private Predicate range(long[] r) {
    return Predicate.and(Predicate.ge(pruneColumn, GroupAggregation.instant(r[0])),
        Predicate.lt(pruneColumn, GroupAggregation.instant(r[1])));
  }
}
