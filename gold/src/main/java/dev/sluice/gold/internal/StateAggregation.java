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
   * is empty: every group is recomputed), else its change rows.
   *
   * @throws IllegalStateException when a group would have fewer than no rows (state and feed disagree)
   */
  Result apply(Batch batch, boolean seed, StateStore store, EvalContext context) {
    int snapshot = batch.schema().indexOf(TagChanges.SNAPSHOT);
    int changeType = batch.schema().indexOf(CHANGE_TYPE);
    Map<String, GroupTotals> touched = new HashMap<>();
    for (Row r : batch.rows()) {
      if ((Boolean) r.get(snapshot) != seed) {
        continue;
      }
      int sign = seed ? 1 : sign((String) r.get(changeType));
      for (Group g : aggregation.groupsOf(r)) {
        String key = g.key();
        GroupTotals t = touched.get(key);
        if (t == null) {
          t = load(store, key, g);
          touched.put(key, t);
        }
        t.rows += sign;
        aggregation.add(t.measures, r, sign, context);
      }
    }
    Map<String, Row> rows = new LinkedHashMap<>();
    Set<String> emptied = new HashSet<>();
    for (Map.Entry<String, GroupTotals> e : touched.entrySet()) {
      GroupTotals t = e.getValue();
      Row key = TotalsLayout.key(e.getKey());
      if (t.rows < 0) {
        throw GoldErrors.stateDisagrees(e.getKey(), t.rows, store.version());
      }
      if (t.rows == 0) {
        store.remove(key);
        emptied.add(e.getKey());
      } else {
        store.put(key, layout.encode(t));
        rows.put(e.getKey(), aggregation.outputRow(t.group, e.getKey(), t.measures));
      }
    }
    return new Result(rows, emptied);
  }

  private GroupTotals load(StateStore store, String key, Group g) {
    Row value = store.get(TotalsLayout.key(key));
    return value == null ? new GroupTotals(g, aggregation.newInvertibles(), 0) : layout.decode(value);
  }

  private static int sign(String changeType) {
    return switch (changeType) {
      case "insert", "update_postimage" -> 1;
      case "delete", "update_preimage" -> -1;
      default -> throw GoldErrors.unknownChangeType(changeType);
    };
  }
}
