package dev.sluice.gold.internal;

import dev.sluice.config.AggregateConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.HashSet;
import java.util.Set;

/**
 * The ledger step of update and complete mode, after joins, columns and filter: a change row is
 * {@code written} when at least one row made of it is still there and belongs to a group (with a window:
 * has an event time), {@code filtered} otherwise. Binding the aggregate here checks it when the query
 * starts.
 */
final class ChangeLedger implements BatchTransformer {
  private final AggregateConfig config;
  private final LedgerState ledger;
  private GroupAggregation aggregation;

  ChangeLedger(AggregateConfig config, LedgerState ledger) {
    this.config = config;
    this.ledger = ledger;
  }

  @Override
  public StructType outputSchema(StructType input) {
    aggregation = new GroupAggregation(config, input);
    return input;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    int snapshot = batch.schema().indexOf(TagChanges.SNAPSHOT);
    int id = batch.schema().indexOf(TagChanges.ROW);
    Set<Long> written = new HashSet<>();
    for (Row r : batch.rows()) {
      if (!(Boolean) r.get(snapshot) && (!aggregation.windowed() || aggregation.eventTime(r) != null)) {
        written.add((Long) r.get(id));
      }
    }
    long rowsIn = ledger.rowsIn(context.batchId());
    Ledger.of(written.size(), rowsIn - written.size(), 0).forEach(context::count);
    return batch;
  }
}
