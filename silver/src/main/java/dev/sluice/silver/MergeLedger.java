package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import java.util.Map;

/** What became of the rows handed to the MERGE, in the ledger's terms (see {@link RowLedger}). */
final class MergeLedger {
  long written;
  long superseded;
  long unchanged;

  /** Puts the three counters into {@code metrics}. */
  void into(Map<String, Long> metrics) {
    metrics.put(RowLedger.WRITTEN, written);
    metrics.put(RowLedger.SUPERSEDED, superseded);
    metrics.put(RowLedger.UNCHANGED, unchanged);
  }
}
