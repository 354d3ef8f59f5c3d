package dev.sluice.bronze;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The row ledger of one bronze batch: every row the source produced is either written to the bronze table or
 * quarantined (bronze deduplicates, filters and drops nothing, and has no watermark), so
 * {@code rowsIn = written + quarantined} and the other terms are 0.
 */
record Ledger(long rowsIn, long written, long quarantined) {
  static final String PREFIX = "ledger.";

  Ledger {
    if (rowsIn != written + quarantined) {
      throw new IllegalStateException("Bronze ledger does not balance: rowsIn " + rowsIn + " != written " + written
          + " + quarantined " + quarantined);
    }
  }

  /** The {@code ledger.*} metrics, every term of the equation present. */
  Map<String, Long> metrics() {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put(PREFIX + "rowsIn", rowsIn);
    out.put(PREFIX + "written", written);
    out.put(PREFIX + "deduplicated", 0L);
    out.put(PREFIX + "late", 0L);
    out.put(PREFIX + "quarantined", quarantined);
    out.put(PREFIX + "filtered", 0L);
    out.put(PREFIX + "dropped", 0L);
    return out;
  }
}
