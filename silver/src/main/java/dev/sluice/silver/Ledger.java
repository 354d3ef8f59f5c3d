package dev.sluice.silver;

import java.util.List;

/**
 * The row ledger's counter names. For every batch: rowsIn = written + deduplicated + late + quarantined +
 * filtered + dropped, where written counts the rows handed to the MERGE (after dedup), whether they then
 * inserted, updated, deleted or were ignored as older than the table's version.
 */
final class Ledger {
  static final String ROWS_IN = "ledger.rowsIn";
  static final String WRITTEN = "ledger.written";
  static final String DEDUPLICATED = "ledger.deduplicated";
  static final String LATE = "ledger.late";
  static final String QUARANTINED = "ledger.quarantined";
  static final String FILTERED = "ledger.filtered";
  static final String DROPPED = "ledger.dropped";

  static final List<String> KEYS = List.of(ROWS_IN, WRITTEN, DEDUPLICATED, LATE, QUARANTINED, FILTERED, DROPPED);

  private Ledger() {}

  static String expectationFailed(String name) {
    return "expectation." + name + ".failed";
  }
}
