package dev.sluice.orchestration.http.internal;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.RowLedger;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/** What the API, the metrics and the dashboard read off one batch's progress, computed in one place. */
final class Batches {
  private Batches() {}

  /**
   * The row ledger of the batch: {@code in} and each outcome ({@link RowLedger#OUTCOMES}). A batch whose
   * commit the sink found already made (a re-run after a crash) counts nothing: the crashed run counted it. A
   * batch without ledger counters reports its input rows as {@code in}.
   */
  static Map<String, Long> ledger(QueryProgress p) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (p.sink() != null && p.sink().alreadyCommitted()) {
      return out;
    }
    Map<String, Long> m = p.observedMetrics();
    out.put("in", m.getOrDefault(RowLedger.ROWS_IN, p.numInputRows()));
    for (String o : RowLedger.OUTCOMES) {
      Long v = m.get(RowLedger.PREFIX + o);
      if (v != null) {
        out.put(o, v);
      }
    }
    return out;
  }

  /** The watermark the batch ran with, if the query has one. */
  static Instant watermark(QueryProgress p) {
    String w = p.eventTime().get("watermark");
    if (w == null || w.isEmpty()) {
      return null;
    }
    try {
      Instant i = Instant.parse(w);
      return i.toEpochMilli() <= 0 ? null : i;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * How far the watermark trailed the batch's own time, in seconds: how late (in event time) the query's
   * output is final. Empty when the query has no watermark.
   */
  static OptionalDouble watermarkLagSeconds(QueryProgress p) {
    Instant w = watermark(p);
    Instant at = time(p);
    if (w == null || at == null) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Math.max(0, Duration.between(w, at).toMillis() / 1000.0));
  }

  static Instant time(QueryProgress p) {
    try {
      return p.timestamp() == null ? null : Instant.parse(p.timestamp());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Rows kept in state by all the batch's stateful operators. */
  static long stateRows(QueryProgress p) {
    return p.stateOperators().stream().mapToLong(QueryProgress.StateOperatorProgress::numRowsTotal).sum();
  }
}
