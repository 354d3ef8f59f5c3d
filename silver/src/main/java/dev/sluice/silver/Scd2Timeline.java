package dev.sluice.silver;

import static dev.sluice.silver.VersionOrder.SEQUENCE;

import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Places one key's new changes on its SCD 2 timeline: the table's versions ({@code __start_at},
 * {@code __end_at}) and the key's tombstones are what is known; the result is the MERGE source rows of the
 * key (changed versions, new versions, and removal markers: a version's row with {@code __is_current} null).
 *
 * <p>Rules, by {@link VersionOrder}: a change at a tombstone's sequence value loses to it (a delete there is
 * the same delete again: unchanged); a change at a version's start wins the tie (an upsert replaces the values,
 * unless equal: unchanged; a delete removes that version); a delete older than everything known is ignored
 * (superseded), one newer closes the open version (or, with none open, changes nothing: unchanged) and leaves a
 * tombstone; an upsert is inserted between its neighbours, closing the one before it.
 */
final class Scd2Timeline {
  private final int stageSize;

  /** The key's MERGE rows and its newest delete that took effect (null when none). */
  record Placed(List<Row> rows, Object tombstone) {}

  Scd2Timeline(int stageSize) {
    this.stageSize = stageSize;
  }

  Placed place(TreeMap<Object, Change> events, List<Row> existing, TreeSet<Object> tombstones, MergeLedger ledger) {
    Map<Object, Row> byStart = new HashMap<>();
    TreeSet<Object> boundaries = new TreeSet<>(SEQUENCE);
    boolean open = false;
    for (Row x : existing) {
      byStart.put(start(x), x);
      boundaries.add(start(x));
      if (end(x) != null) {
        boundaries.add(end(x));
      }
      open |= end(x) == null;
    }
    boundaries.addAll(tombstones);
    Object known = boundaries.isEmpty() ? null : boundaries.last();
    Map<Object, Row> replaced = new HashMap<>();
    Set<Object> removed = new HashSet<>();
    TreeMap<Object, Change> inserts = new TreeMap<>(SEQUENCE);
    TreeSet<Object> cuts = new TreeSet<>(SEQUENCE);
    Object tombstone = null;
    for (Map.Entry<Object, Change> e : events.entrySet()) {
      Object s = e.getKey();
      Change c = e.getValue();
      Row x = byStart.get(s);
      int vsKnown = known == null ? 1 : SEQUENCE.compare(s, known);
      if (tombstones.contains(s)) {
        count(ledger, c.delete() ? 0 : -1);
      } else if (x != null && c.delete()) {
        removed.add(s);
        ledger.written++;
        if (vsKnown == 0) {
          tombstone = s;
          open = false;
        }
      } else if (x != null) {
        if (Row.equalValues(stage(x), c.row())) {
          ledger.unchanged++;
        } else {
          replaced.put(s, withValues(x, c.row()));
          ledger.written++;
        }
      } else if (c.delete()) {
        if (vsKnown > 0) {
          cuts.add(s);
          tombstone = s;
          count(ledger, open ? 1 : 0);
          open = false;
        } else {
          count(ledger, vsKnown == 0 ? 0 : -1);
        }
      } else {
        inserts.put(s, c);
        cuts.add(s);
        ledger.written++;
        open |= vsKnown > 0;
      }
    }
    return new Placed(rows(existing, replaced, removed, inserts, cuts, boundaries), tombstone);
  }

  /** +1 written, 0 unchanged, -1 superseded. */
  private static void count(MergeLedger ledger, int outcome) {
    if (outcome > 0) {
      ledger.written++;
    } else if (outcome == 0) {
      ledger.unchanged++;
    } else {
      ledger.superseded++;
    }
  }

  private List<Row> rows(List<Row> existing, Map<Object, Row> replaced, Set<Object> removed,
      TreeMap<Object, Change> inserts, TreeSet<Object> cuts, TreeSet<Object> boundaries) {
    List<Row> out = new ArrayList<>();
    for (Row x : existing) {
      if (removed.contains(start(x))) {
        out.add(marker(x));
        continue;
      }
      Row row = replaced.getOrDefault(start(x), x);
      Object next = cuts.higher(start(x));
      if (next != null && (end(x) == null || SEQUENCE.compare(next, end(x)) < 0)) {
        row = withEnd(row, next);
      }
      if (row != x) {
        out.add(row);
      }
    }
    boundaries.addAll(cuts);
    inserts.forEach((s, c) -> out.add(version(c.row(), s, boundaries.higher(s))));
    return out;
  }

  /** Whether a MERGE source row stands for the removal of the version it matches. */
  boolean isRemoval(Row row) {
    return row.get(stageSize + 2) == null;
  }

  private Object start(Row x) {
    return x.get(stageSize);
  }

  private Object end(Row x) {
    return x.get(stageSize + 1);
  }

  private Row stage(Row x) {
    Object[] values = new Object[stageSize];
    for (int i = 0; i < stageSize; i++) {
      values[i] = x.get(i);
    }
    return Row.of(values);
  }

  static Row version(Row row, Object start, Object end) {
    Object[] values = new Object[row.size() + 3];
    for (int i = 0; i < row.size(); i++) {
      values[i] = row.get(i);
    }
    values[row.size()] = start;
    values[row.size() + 1] = end;
    values[row.size() + 2] = end == null;
    return Row.of(values);
  }

  private Row withValues(Row x, Row stageRow) {
    return version(stageRow, start(x), end(x));
  }

  private Row withEnd(Row x, Object end) {
    Object[] values = x.toArray();
    values[stageSize + 1] = end;
    values[stageSize + 2] = false;
    return Row.of(values);
  }

  private Row marker(Row x) {
    Object[] values = x.toArray();
    values[stageSize + 2] = null;
    return Row.of(values);
  }
}
