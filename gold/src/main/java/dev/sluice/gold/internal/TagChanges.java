package dev.sluice.gold.internal;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * The first step of a gold query: counts the change rows read ({@code ledger.rowsIn}), numbers them
 * ({@code _gold_row}, so that the ledger counts each once however many rows a join makes of it) and, in
 * update and complete mode, adds the rows of silver's current snapshot that the batch's groups need,
 * flagged {@code _gold_snapshot = true}, so that joins, columns and filter treat both alike.
 */
final class TagChanges implements BatchTransformer {
  static final String SNAPSHOT = "_gold_snapshot";
  static final String ROW = "_gold_row";

  private final LedgerState ledger;
  private final SnapshotRows snapshot;

  /**
   * @param snapshot where current rows come from, or null (append mode reads changes only)
   */
  TagChanges(LedgerState ledger, SnapshotRows snapshot) {
    this.ledger = ledger;
    this.snapshot = snapshot;
  }

  @Override
  public StructType outputSchema(StructType input) {
    return input.add(SNAPSHOT, PrimitiveType.BOOLEAN).add(ROW, PrimitiveType.LONG);
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    ledger.start(context.batchId(), batch.size(), context.batchTimestamp());
    context.count(RowLedger.ROWS_IN, batch.size());
    StructType schema = outputSchema(batch.schema());
    List<Row> out = new ArrayList<>(batch.size());
    long i = 0;
    for (Row r : batch.rows()) {
      Object[] values = new Object[schema.size()];
      for (int c = 0; c < r.size(); c++) {
        values[c] = r.get(c);
      }
      values[r.size()] = Boolean.FALSE;
      values[r.size() + 1] = i++;
      out.add(Row.of(values));
    }
    if (snapshot != null) {
      out.addAll(snapshot.rows(batch, schema, context));
    }
    return new Batch(schema, out);
  }
}
