package dev.sluice.ingestion;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The row ledger's vocabulary, shared by every layer and by whoever prints or checks it: for every batch,
 * {@code rowsIn = written + superseded + unchanged + deduplicated + late + quarantined + filtered + dropped},
 * exactly, each term a counter {@code ledger.<term>} in the batch's progress ({@code observedMetrics}) and in
 * its sink commit's {@code operationMetrics}.
 *
 * <ul>
 *   <li>{@code written}: input rows that changed the table (appended, or inserted / updated / deleted by a
 *       MERGE);
 *   <li>{@code superseded}: a version that lost to another version of its key (in the batch, the table or a
 *       delete's tombstone), so it changed nothing;
 *   <li>{@code unchanged}: the newest version, but the table already held exactly it (or, for a delete, the key
 *       was not there);
 *   <li>{@code deduplicated}, {@code late}: removed by deduplication, or by its watermark as late;
 *   <li>{@code quarantined}: sent to {@code <table>_quarantine} with a reason;
 *   <li>{@code filtered}, {@code dropped}: removed by a filter, or by an expectation with action drop.
 * </ul>
 */
public final class RowLedger {
  public static final String PREFIX = "ledger.";
  public static final String ROWS_IN = PREFIX + "rowsIn";
  public static final String WRITTEN = PREFIX + "written";
  public static final String SUPERSEDED = PREFIX + "superseded";
  public static final String UNCHANGED = PREFIX + "unchanged";
  public static final String DEDUPLICATED = PREFIX + "deduplicated";
  public static final String LATE = PREFIX + "late";
  public static final String QUARANTINED = PREFIX + "quarantined";
  public static final String FILTERED = PREFIX + "filtered";
  public static final String DROPPED = PREFIX + "dropped";

  /** The terms on the right of the equation, without the prefix, in the order they are printed. */
  public static final List<String> OUTCOMES = List.of("written", "superseded", "unchanged", "deduplicated", "late",
      "quarantined", "filtered", "dropped");

  /** Every counter, {@link #ROWS_IN} first. */
  public static final List<String> KEYS = keys();

  private RowLedger() {}

  private static List<String> keys() {
    List<String> out = new ArrayList<>();
    out.add(ROWS_IN);
    OUTCOMES.forEach(o -> out.add(PREFIX + o));
    return List.copyOf(out);
  }

  /** Every counter at 0, ready to be filled in. */
  public static Map<String, Long> zero() {
    Map<String, Long> out = new LinkedHashMap<>();
    KEYS.forEach(k -> out.put(k, 0L));
    return out;
  }

  /** The ledger counters of commit or progress metrics, without the prefix, rowsIn first; empty when none. */
  public static Map<String, Long> of(Map<String, ?> metrics) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String k : KEYS) {
      Object v = metrics.get(k);
      if (v != null) {
        out.put(k.substring(PREFIX.length()), Long.parseLong(v.toString()));
      }
    }
    return out;
  }

  /** The sum of the outcome counters of {@code metrics} (absent ones count 0); equals rowsIn when it balances. */
  public static long outcomes(Map<String, ?> metrics) {
    long sum = 0;
    for (String o : OUTCOMES) {
      Object v = metrics.get(PREFIX + o);
      sum += v == null ? 0 : Long.parseLong(v.toString());
    }
    return sum;
  }
}
