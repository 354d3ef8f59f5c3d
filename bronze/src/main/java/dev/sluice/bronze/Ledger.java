package dev.sluice.bronze;

import dev.sluice.ingestion.RowLedger;
import java.util.Map;

/**
 * The row ledger of one bronze batch, in {@link RowLedger}'s terms: every row the source produced is written to
 * the bronze table, quarantined, or deduplicated (its file's rows were already in the table when a new checkpoint
 * started over it, see {@link IngestedFiles}); bronze filters and drops nothing and has no watermark, so
 * {@code rowsIn = written + quarantined + deduplicated} and the other terms are 0.
 */
record Ledger(long rowsIn, long written, long quarantined, long deduplicated) {
  Ledger {
    if (rowsIn != written + quarantined + deduplicated) {
      throw new IllegalStateException("Bronze ledger does not balance: rowsIn " + rowsIn + " != written " + written
          + " + quarantined " + quarantined + " + deduplicated " + deduplicated);
    }
  }

  /** The {@code ledger.*} metrics, every term of the equation present. */
  Map<String, Long> metrics() {
    Map<String, Long> out = RowLedger.zero();
    out.put(RowLedger.ROWS_IN, rowsIn);
    out.put(RowLedger.WRITTEN, written);
    out.put(RowLedger.DEDUPLICATED, deduplicated);
    out.put(RowLedger.QUARANTINED, quarantined);
    return out;
  }
}
