package dev.sluice.gold.internal;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.BitSet;
import java.util.Map;

/**
 * The ledger of an update or complete mode batch, after joins, columns and filter: a change row is {@code written}
 * when at least one row made of it is still there and belongs to a group (with a window: has an event time),
 * {@code filtered} otherwise. The sink counts while it aggregates, so the batch is read once (a batch of silver's
 * snapshot is decoded from its files on every pass).
 */
final class ChangeLedger {
  private final GroupAggregation aggregation;
  private final int snapshot;
  private final int id;
  private final BitSet written = new BitSet();

  ChangeLedger(GroupAggregation aggregation, StructType schema) {
    this.aggregation = aggregation;
    this.snapshot = schema.indexOf(TagChanges.SNAPSHOT);
    this.id = schema.indexOf(TagChanges.ROW);
  }

  /** Counts one row of the batch (change rows are numbered 0 … rowsIn-1; snapshot rows don't count). */
  void count(Row r) {
    if (!(Boolean) r.get(snapshot) && (!aggregation.windowed() || aggregation.eventTime(r) != null)) {
      written.set(Math.toIntExact((Long) r.get(id)));
    }
  }

  /** Puts the batch's outcome counters into {@code metrics}: those of its {@code rowsIn} not written are filtered. */
  void report(long rowsIn, Map<String, Long> metrics) {
    long count = written.cardinality();
    metrics.putAll(Ledger.of(count, rowsIn - count, 0));
  }
}
