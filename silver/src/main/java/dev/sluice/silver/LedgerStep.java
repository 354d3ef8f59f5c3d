package dev.sluice.silver;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.BatchTransformer;
import dev.sluice.ingestion.RowLedger;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;

/** A pass-through step that counts rows for the ledger at one point of the plan. */
final class LedgerStep implements BatchTransformer {
  /** What the step does with a batch passing it. */
  @FunctionalInterface
  interface Counter {
    void count(Batch batch, Context context, StructType schema);
  }

  private final Counter counter;
  private final String requiredTimestamp;
  private StructType schema;

  private LedgerStep(Counter counter, String requiredTimestamp) {
    this.counter = counter;
    this.requiredTimestamp = requiredTimestamp;
  }

  /** The first step: starts the batch's state and counts every ledger key (so that all of them are reported). */
  static LedgerStep rowsIn(BatchStates states) {
    return new LedgerStep((batch, ctx, schema) -> {
      states.start(ctx.batchId(), ctx.batchTimestamp());
      for (String key : RowLedger.KEYS) {
        ctx.count(key, key.equals(RowLedger.ROWS_IN) ? batch.size() : 0);
      }
    }, null);
  }

  /**
   * Before deduplication: remembers the row count and how many rows the watermark will drop as late. Mirrors
   * the engine's rule: a row is late when its event time is strictly before the watermark; null is never late.
   */
  static LedgerStep beforeDedup(BatchStates states, String eventTimeColumn) {
    return new LedgerStep((batch, ctx, schema) -> {
      BatchStates.State s = states.of(ctx.batchId());
      s.beforeDedup = batch.size();
      s.late = 0;
      if (eventTimeColumn != null) {
        long watermarkMicros = ctx.watermarkMs() * 1000;
        batch.forEachTimestamp(schema.indexOf(eventTimeColumn), (row, micros) -> {
          if (micros < watermarkMicros) {
            s.late++;
          }
        });
      }
    }, eventTimeColumn);
  }

  /** After deduplication: what is left goes to the MERGE (which counts it); the rest was late or a duplicate. */
  static LedgerStep afterDedup(BatchStates states) {
    return new LedgerStep((batch, ctx, schema) -> {
      BatchStates.State s = states.of(ctx.batchId());
      ctx.count(RowLedger.LATE, s.late);
      ctx.count(RowLedger.DEDUPLICATED, s.beforeDedup - s.late - batch.size());
    }, null);
  }

  @Override
  public StructType outputSchema(StructType input) {
    if (requiredTimestamp != null) {
      watermarkColumn(input, requiredTimestamp);
    }
    this.schema = input;
    return input;
  }

  /**
   * The index of the dedup watermark's column in {@code input}.
   *
   * @throws IllegalArgumentException when it is not a timestamp column of the stream
   */
  static int watermarkColumn(StructType input, String column) {
    int i = input.indexOf(column);
    if (i < 0 || input.field(i).type() != PrimitiveType.TIMESTAMP) {
      throw new IllegalArgumentException("dedup.watermark.column '" + column + "' must be a timestamp"
          + " column of the stream, whose columns are " + input.fieldNames() + "; add or cast it under columns");
    }
    return i;
  }

  @Override
  public Batch apply(Batch batch, Context context) {
    counter.count(batch, context, schema);
    return batch;
  }
}
