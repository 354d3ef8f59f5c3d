package dev.sluice.gold.internal;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.table.data.AbstractRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * The first step of a gold query: counts the change rows read ({@code ledger.rowsIn}), numbers them
 * ({@code _gold_row}, so that the ledger counts each once however many rows a join makes of it) and, in
 * update and complete mode, decides how the batch is computed: from the group state alone (update mode,
 * every measure invertible, the state of the previous batch at hand: counter {@code gold.incremental} =
 * 1), or by adding the rows of silver's current snapshot that the batch's groups need, flagged
 * {@code _gold_snapshot = true}, so that joins, columns and filter treat both alike.
 */
final class TagChanges implements BatchTransformer {
  static final String SNAPSHOT = "_gold_snapshot";
  static final String ROW = "_gold_row";
  static final String INCREMENTAL = "gold.incremental";

  private final LedgerState ledger;
  private final SnapshotRows snapshot;
  private final GroupState state;

  /**
   * @param snapshot where current rows come from, or null (append mode reads changes only)
   * @param state the group totals when update mode can follow the change feed, else null
   */
  TagChanges(LedgerState ledger, SnapshotRows snapshot, GroupState state) {
    this.ledger = ledger;
    this.snapshot = snapshot;
    this.state = state;
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
    // Tagging is a view of the change rows (no copy, nothing spilled again) unless recomputed rows follow them.
    Batch tagged = batch.map(schema, (r, position) -> new TaggedRow(r, position));
    if (snapshot == null) {
      return tagged;
    }
    boolean full = batch.size() > 0 && snapshot.recomputeAll(context);
    boolean incremental = state != null && state.begin(context.batchId(), full);
    context.count(INCREMENTAL, incremental ? 1 : 0);
    if (incremental) {
      return tagged;
    }
    // Without usable state every group is recomputed, which seeds the state again.
    Batch.Builder out = Batch.builder(schema);
    out.addAll(tagged.rows());
    out.addAll(snapshot.rows(batch, schema, context, full || state != null));
    return out.build();
  }

  /** A change row with the two tag columns, without copying its values. */
  private static final class TaggedRow extends AbstractRow {
    private final Row change;
    private final int size;
    private final Long id;

    TaggedRow(Row change, long id) {
      this.change = change;
      this.size = change.size();
      this.id = id;
    }

    @Override
    public int size() {
      return size + 2;
    }

    @Override
    public Object get(int ordinal) {
      if (ordinal < size) {
        return change.get(ordinal);
      }
      if (ordinal == size) {
        return Boolean.FALSE;
      }
      if (ordinal == size + 1) {
        return id;
      }
      throw new IndexOutOfBoundsException("Column " + ordinal + " of a row of " + (size + 2) + " columns");
    }
  }
}
