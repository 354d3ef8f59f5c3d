package dev.sluice.orchestration.cli;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.RowLedger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How the CLI sums and prints the layers' row ledger ({@link RowLedger}: rowsIn = written + superseded + …). */
final class Ledger {
  static final String PREFIX = RowLedger.PREFIX;
  static final List<String> OUTCOMES = RowLedger.OUTCOMES;

  private Ledger() {}

  /** The ledger counters of commit or progress metrics, without the prefix, rowsIn first; empty when none. */
  static Map<String, Long> of(Map<String, ?> metrics) {
    return RowLedger.of(metrics);
  }

  /**
   * The ledger summed over the batches this run committed: a batch re-run after a crash whose commit the sink
   * found already in the table is left out, since the run that crashed wrote (and counted) it.
   */
  static Map<String, Long> sum(List<QueryProgress> progress) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (QueryProgress p : committedHere(progress)) {
      of(p.observedMetrics()).forEach((k, v) -> out.merge(k, v, Long::sum));
    }
    return out;
  }

  /** The batches whose sink commit this run made (not found already committed by an earlier run). */
  static List<QueryProgress> committedHere(List<QueryProgress> progress) {
    return progress.stream().filter(p -> p.sink() == null || !p.sink().alreadyCommitted()).toList();
  }

  /** {@code 2,000 in = 1,997 written + 3 quarantined} (zero outcomes left out); empty text without a ledger. */
  static String text(Map<String, Long> ledger) {
    if (!ledger.containsKey("rowsIn")) {
      return "";
    }
    StringBuilder sb = new StringBuilder(Values.count(ledger.get("rowsIn"))).append(" in = ");
    String sep = "";
    for (String k : OUTCOMES) {
      long v = ledger.getOrDefault(k, 0L);
      if (v != 0 || k.equals("written")) {
        sb.append(sep).append(Values.count(v)).append(' ').append(k);
        sep = " + ";
      }
    }
    return sb.toString();
  }
}
