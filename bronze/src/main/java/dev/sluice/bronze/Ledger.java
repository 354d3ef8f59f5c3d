package dev.sluice.bronze;

import dev.sluice.ingestion.RowLedger;
import java.util.Map;

/**
 * The row ledger of one bronze batch, in {@link RowLedger}'s terms: every row the source produced is either
 * written to the bronze table or quarantined (bronze deduplicates, filters and drops nothing, and has no
 * watermark), so {@code rowsIn = written + quarantined} and the other terms are 0.
 */
record Ledger(long rowsIn, long written, long quarantined) {
  Ledger {
    if (rowsIn != written + quarantined) {
      throw new IllegalStateException("Bronze ledger does not balance: rowsIn " + rowsIn + " != written " + written
          + " + quarantined " + quarantined);
    }
  }

  /** The {@code ledger.*} metrics, every term of the equation present. */
  Map<String, Long> metrics() {
    Map<String, Long> out = RowLedger.zero();
    out.put(RowLedger.ROWS_IN, rowsIn);
    out.put(RowLedger.WRITTEN, written);
    out.put(RowLedger.QUARANTINED, quarantined);
    return out;
  }
}
