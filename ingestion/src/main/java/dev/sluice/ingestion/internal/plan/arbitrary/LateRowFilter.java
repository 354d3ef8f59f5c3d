package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;

/**
 * Spark's late-row rule for arbitrary stateful operators with event time: a row whose event time is strictly
 * before the watermark is late (a null event time never is).
 */
final class LateRowFilter {
  private final int ordinal;

  private LateRowFilter(int ordinal) {
    this.ordinal = ordinal;
  }

  /** No filtering (no watermark, or a time mode that doesn't use it). */
  static final LateRowFilter NONE = new LateRowFilter(-1);

  /**
   * @throws IllegalArgumentException when the event-time column is not a timestamp of the input
   */
  static LateRowFilter on(String column, StructType input, String operator) {
    int at = input.indexOf(column);
    if (at < 0 || input.field(at).type() != PrimitiveType.TIMESTAMP) {
      throw new IllegalArgumentException(operator + ": the watermark column '" + column + "' is not a timestamp"
          + " column of its input " + input.fieldNames() + "; put withWatermark right before groupByKey");
    }
    return new LateRowFilter(at);
  }

  boolean active() {
    return ordinal >= 0;
  }

  boolean isLate(Row row, long watermarkMs) {
    if (ordinal < 0) {
      return false;
    }
    Instant t = (Instant) row.get(ordinal);
    return t != null && (t.getEpochSecond() * 1_000_000L + t.getNano() / 1000) < watermarkMs * 1000;
  }
}
