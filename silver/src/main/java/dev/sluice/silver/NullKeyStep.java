package dev.sluice.silver;

import dev.sluice.config.MergeConfig;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.StringJoiner;

/**
 * Quarantines the rows the MERGE cannot place: a null merge key (it would match no row, ever, and be inserted
 * anew each time) or a null {@code sequence_by} value (it has no place among the key's versions). The reason in
 * {@code _failed_expectations} names the columns: {@code null merge key: order_id},
 * {@code null sequence_by: updated_at}. Counted as quarantined in the ledger.
 */
final class NullKeyStep implements BatchTransformer {
  private final MergeConfig config;
  private final BatchStates states;
  private final List<String> columns = new ArrayList<>();
  private int[] positions;
  private StructType quarantineSchema;

  NullKeyStep(MergeConfig config, BatchStates states) {
    this.config = config;
    this.states = states;
    columns.addAll(config.keys());
    config.sequenceBy().ifPresent(columns::add);
  }

  @Override
  public StructType outputSchema(StructType input) {
    positions = SilverSchemas.positions(input, columns);
    quarantineSchema = QuarantineRows.schema(input);
    return input;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    BitSet withNull = new BitSet();
    batch.forEachRowWithNullIn(positions, withNull::set);
    List<Row> quarantined = new ArrayList<>();
    for (int i = withNull.nextSetBit(0); i >= 0; i = withNull.nextSetBit(i + 1)) {
      Row row = batch.rows().get(i);
      quarantined.add(QuarantineRows.of(row, reason(row), context.batchId(), quarantineSchema));
    }
    context.count(RowLedger.QUARANTINED, quarantined.size());
    states.of(context.batchId()).quarantined.addAll(quarantined);
    if (quarantined.isEmpty()) {
      return batch;
    }
    return batch.without(withNull);
  }

  /** Why a row with a null key or sequence is quarantined (its whole row: positions are the batch's). */
  private String reason(Row row) {
    StringJoiner keys = new StringJoiner(", ", "null merge key: ", "").setEmptyValue("");
    for (int i = 0; i < config.keys().size(); i++) {
      if (row.get(positions[i]) == null) {
        keys.add(columns.get(i));
      }
    }
    StringJoiner out = new StringJoiner(",").setEmptyValue("");
    if (keys.length() > 0) {
      out.add(keys.toString());
    }
    if (config.sequenceBy().isPresent() && row.get(positions[positions.length - 1]) == null) {
      out.add("null sequence_by: " + config.sequenceBy().get());
    }
    return out.length() == 0 ? null : out.toString();
  }
}
