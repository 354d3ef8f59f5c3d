package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Quarantines rows whose event time is more than {@code dedup.watermark.max_future_skew} after the batch's
 * timestamp, just before the watermark: such a time can't be real yet (typically epoch milliseconds read as
 * seconds), and letting it through would move the watermark there and make every later row late, for good.
 * The quarantine row names {@value #REASON} as its broken rule; the ledger counts it as quarantined. The
 * engine applies the same limit ({@code maxFutureSkew}), so nothing this step keeps can move the watermark
 * too far.
 */
final class FutureEventTimeStep implements BatchTransformer {
  static final String REASON = "max_future_skew";

  private final String column;
  private final Duration maxFutureSkew;
  private final BatchStates states;
  private int index;
  private StructType quarantineSchema;

  FutureEventTimeStep(String column, Duration maxFutureSkew, BatchStates states) {
    this.column = column;
    this.maxFutureSkew = maxFutureSkew;
    this.states = states;
  }

  @Override
  public StructType outputSchema(StructType input) {
    index = LedgerStep.watermarkColumn(input, column);
    quarantineSchema = QuarantineRows.schema(input);
    return input;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    Instant limit = context.batchTimestamp().plus(maxFutureSkew);
    long limitMicros = Math.addExact(Math.multiplyExact(limit.getEpochSecond(), 1_000_000L), limit.getNano() / 1000);
    BitSet future = new BitSet();
    batch.forEachTimestamp(index, (row, micros) -> {
      // Microseconds drop digits an instant may have: the limit's own microsecond is decided on the instant.
      if (micros > limitMicros
          || micros == limitMicros && ((Instant) batch.rows().get(row).get(index)).isAfter(limit)) {
        future.set(row);
      }
    });
    if (future.isEmpty()) {
      return batch;
    }
    List<Row> quarantined = new ArrayList<>();
    for (int i = future.nextSetBit(0); i >= 0; i = future.nextSetBit(i + 1)) {
      quarantined.add(QuarantineRows.of(batch.rows().get(i), REASON, context.batchId(), quarantineSchema));
    }
    context.count(RowLedger.QUARANTINED, quarantined.size());
    states.of(context.batchId()).quarantined.addAll(quarantined);
    return batch.without(future);
  }
}
