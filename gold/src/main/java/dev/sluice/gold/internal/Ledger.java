package dev.sluice.gold.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The row ledger of a gold batch, in the keys every layer uses. Rows in are the change rows read from
 * silver's change feed; each is counted once (by its position in the batch, however many rows a join
 * made of it) as written, filtered or late. See {@code GoldPipeline} for the definitions.
 */
final class Ledger {
  static final String ROWS_IN = "ledger.rowsIn";
  static final String WRITTEN = "ledger.written";
  static final String DEDUPLICATED = "ledger.deduplicated";
  static final String LATE = "ledger.late";
  static final String QUARANTINED = "ledger.quarantined";
  static final String FILTERED = "ledger.filtered";
  static final String DROPPED = "ledger.dropped";

  private Ledger() {}

  /** The counters of one batch: rows in is their sum by construction. */
  static Map<String, Long> of(long written, long filtered, long late) {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put(WRITTEN, written);
    out.put(DEDUPLICATED, 0L);
    out.put(LATE, late);
    out.put(QUARANTINED, 0L);
    out.put(FILTERED, filtered);
    out.put(DROPPED, 0L);
    return out;
  }
}
