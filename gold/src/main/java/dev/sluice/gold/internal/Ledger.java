package dev.sluice.gold.internal;

import dev.sluice.ingestion.RowLedger;
import java.util.Map;

/**
 * The row ledger of a gold batch, in {@link RowLedger}'s terms. Rows in are the change rows read from
 * silver's change feed; each is counted once (by its position in the batch, however many rows a join
 * made of it) as written, filtered or late. See {@code GoldPipeline} for the definitions.
 */
final class Ledger {
  private Ledger() {}

  /** The outcome counters of one batch (every term present, rows in left out): rows in is their sum. */
  static Map<String, Long> of(long written, long filtered, long late) {
    Map<String, Long> out = RowLedger.zero();
    out.remove(RowLedger.ROWS_IN);
    out.put(RowLedger.WRITTEN, written);
    out.put(RowLedger.LATE, late);
    out.put(RowLedger.FILTERED, filtered);
    return out;
  }
}
