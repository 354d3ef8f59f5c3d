package dev.sluice.bronze;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The row ledger of one bronze batch: every row the source produced is written to the bronze table, quarantined,
 * or deduplicated (its file's rows were already in the table when a new checkpoint started over it, see
 * {@link IngestedFiles}); bronze filters and drops nothing and has no watermark, so
 * {@code rowsIn = written + quarantined + deduplicated} and the other terms are 0.
 */
record Ledger(long rowsIn, long written, long quarantined, long deduplicated) {
  static final String PREFIX = "ledger.";
  static final String DEDUPLICATED = PREFIX + "deduplicated";

  Ledger {
    if (rowsIn != written + quarantined + deduplicated) {
      throw new IllegalStateException("Bronze ledger does not balance: rowsIn " + rowsIn + " != written " + written
          + " + quarantined " + quarantined + " + deduplicated " + deduplicated);
    }
  }

  /** The {@code ledger.*} metrics, every term of the equation present. */
  Map<String, Long> metrics() {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put(PREFIX + "rowsIn", rowsIn);
    out.put(PREFIX + "written", written);
    out.put(DEDUPLICATED, deduplicated);
    out.put(PREFIX + "late", 0L);
    out.put(PREFIX + "quarantined", quarantined);
    out.put(PREFIX + "filtered", 0L);
    out.put(PREFIX + "dropped", 0L);
    return out;
  }
}
