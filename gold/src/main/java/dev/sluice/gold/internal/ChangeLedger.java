package dev.sluice.gold.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.BitSet;

/**
 * The ledger step of update and complete mode, after joins, columns and filter: a change row is
 * {@code written} when at least one row made of it is still there and belongs to a group (with a window:
 * has an event time), {@code filtered} otherwise. Binding the aggregate here checks it when the query
 * starts (and gives the group state its shape).
 */
final class ChangeLedger implements BatchTransformer {
  private final AggregateConfig config;
  private final LedgerState ledger;
  private final GroupState state;
  private GroupAggregation aggregation;

  /**
   * @param state the group totals of update mode, or null
   */
  ChangeLedger(AggregateConfig config, LedgerState ledger, GroupState state) {
    this.config = config;
    this.ledger = ledger;
    this.state = state;
  }

  @Override
  public StructType outputSchema(StructType input) {
    aggregation = new GroupAggregation(config, input);
    if (state != null) {
      state.bind(new TotalsLayout(aggregation).schema());
    }
    return input;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    int snapshot = batch.schema().indexOf(TagChanges.SNAPSHOT);
    int id = batch.schema().indexOf(TagChanges.ROW);
    // Change rows are numbered 0 … rowsIn-1.
    BitSet written = new BitSet();
    for (Row r : batch.rows()) {
      if (!(Boolean) r.get(snapshot) && (!aggregation.windowed() || aggregation.eventTime(r) != null)) {
        written.set(Math.toIntExact((Long) r.get(id)));
      }
    }
    long rowsIn = ledger.rowsIn(context.batchId());
    long count = written.cardinality();
    Ledger.of(count, rowsIn - count, 0).forEach(context::count);
    return batch;
  }
}
