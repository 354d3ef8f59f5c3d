package dev.sluice.gold.internal;

import dev.sluice.gold.internal.GroupAggregation.Group;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Update mode with invertible measures: the batch's rows change the totals of their groups in the
 * state store, each with its sign (+1 for inserts, update post-images and snapshot rows, -1 for update
 * pre-images and deletes), and the touched groups' gold rows are made from the totals alone.
 */
final class StateAggregation {
  private static final String CHANGE_TYPE = "_change_type";

  private final GroupAggregation aggregation;
  private final TotalsLayout layout;

  StateAggregation(GroupAggregation aggregation) {
    this.aggregation = aggregation;
    this.layout = new TotalsLayout(aggregation);
  }

  /** The gold rows of the groups the batch touched that still have rows, and the keys of those now empty. */
  record Result(Map<String, Row> rows, Set<String> emptied) {}

  /**
   * Applies the rows of {@code batch} to {@code store}: with {@code seed}, its snapshot rows (the store
   * is empty: every group is recomputed), else its change rows; {@code changes} counts every row on the way.
   *
   * @throws IllegalStateException when a group would have fewer than no rows (state and feed disagree)
   */
  Result apply(Batch batch, boolean seed, StateStore store, EvalContext context, ChangeLedger changes) {
    int snapshot = batch.schema().indexOf(TagChanges.SNAPSHOT);
    int changeType = batch.schema().indexOf(CHANGE_TYPE);
    // By group id: the key text (and the state lookup by it) is made once per group, not per row.
    Map<GroupId, Touched> touched = new HashMap<>();
    boolean oneGroup = aggregation.oneGroupPerRow();
    GroupId probe = aggregation.newProbe();
    for (Row r : batch.rows()) {
      changes.count(r);
      if ((Boolean) r.get(snapshot) != seed) {
        continue;
      }
      int sign = seed ? 1 : sign((String) r.get(changeType));
      if (oneGroup) {
        // The common case (no window or a tumbling one) looks the group up with one probe for all rows.
        if (aggregation.probe(r, probe)) {
          add(touched, probe, r, sign, store, context);
        }
        continue;
      }
      for (GroupId id : aggregation.groupIdsOf(r)) {
        add(touched, id, r, sign, store, context);
      }
    }
    Map<String, Row> rows = new LinkedHashMap<>();
    Set<String> emptied = new HashSet<>();
    for (Touched e : touched.values()) {
      GroupTotals t = e.totals;
      Row key = TotalsLayout.key(e.key);
      if (t.rows < 0) {
        throw GoldErrors.stateDisagrees(e.key, t.rows, store.version());
      }
      if (t.rows == 0) {
        store.remove(key);
        emptied.add(e.key);
      } else {
        store.put(key, layout.encode(t));
        rows.put(e.key, aggregation.outputRow(t.group, e.key, t.measures));
      }
    }
    return new Result(rows, emptied);
  }

  /** Adds {@code r} with {@code sign} to the group of {@code id} (a probe is copied before it becomes a key). */
  private void add(Map<GroupId, Touched> touched, GroupId id, Row r, int sign, StateStore store, EvalContext context) {
    Touched t = touched.get(id);
    if (t == null) {
      GroupId key = id.copy();
      t = load(store, aggregation.group(key, r));
      touched.put(key, t);
    }
    t.totals.rows += sign;
    aggregation.add(t.totals.measures, r, sign, context);
  }

  /** A group the batch touched: its key text and totals. */
  private record Touched(String key, GroupTotals totals) {}

  private Touched load(StateStore store, Group g) {
    String key = g.key();
    Row value = store.get(TotalsLayout.key(key));
    return new Touched(key, value == null ? new GroupTotals(g, aggregation.newInvertibles(), 0) : layout.decode(value));
  }

  private static int sign(String changeType) {
    return switch (changeType) {
      case "insert", "update_postimage" -> 1;
      case "delete", "update_preimage" -> -1;
      default -> throw GoldErrors.unknownChangeType(changeType);
    };
  }
}
