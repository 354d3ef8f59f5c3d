package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * An unbound {@code dropDuplicates(columns)} or {@code dropDuplicatesWithinWatermark(columns)} step.
 *
 * @param columns the key columns; empty means every column of the input
 * @param withinWatermark true for {@code dropDuplicatesWithinWatermark}
 * @param eventTimeColumn the stream's watermark column, or null when the stream has no watermark
 * @param watermarkDelayMs the watermark's delay (ignored without an event-time column)
 */
public record DedupSpec(List<String> columns, boolean withinWatermark, String eventTimeColumn, long watermarkDelayMs)
    implements TransformSpec {
  public DedupSpec {
    columns = List.copyOf(columns);
  }

  /** {@code dropDuplicates(columns)} on a stream with the given watermark (column null: none). */
  public static DedupSpec dropDuplicates(List<String> columns, String eventTimeColumn, long watermarkDelayMs) {
    return new DedupSpec(columns, false, eventTimeColumn, watermarkDelayMs);
  }

  /** {@code dropDuplicatesWithinWatermark(columns)} on a stream with the given watermark (column null: none). */
  public static DedupSpec dropDuplicatesWithinWatermark(List<String> columns, String eventTimeColumn,
      long watermarkDelayMs) {
    return new DedupSpec(columns, true, eventTimeColumn, watermarkDelayMs);
  }

  /**
   * @throws IllegalArgumentException naming an unknown column, a non-timestamp event-time column, or (within
   *     watermark) a missing watermark
   */
  @Override
  public StatefulTransform bind(StructType input) {
    String operator = withinWatermark ? "dropDuplicatesWithinWatermark" : "dropDuplicates";
    DedupColumns keys = DedupColumns.resolve(operator, columns, eventTimeColumn, input);
    if (withinWatermark) {
      if (keys.eventTime() < 0) {
        throw new IllegalArgumentException("dropDuplicatesWithinWatermark" + columns + " needs a watermark, but the"
            + " stream has none: its state expires by event time. Call withWatermark(eventTimeColumn, delay) before"
            + " dropDuplicatesWithinWatermark, or use dropDuplicates");
      }
      if (watermarkDelayMs < 0) {
        throw new IllegalArgumentException("dropDuplicatesWithinWatermark: the watermark delay must not be negative,"
            + " but is " + watermarkDelayMs + " ms; fix the delay given to withWatermark");
      }
      return new DropDuplicatesWithinWatermark(input, keys, watermarkDelayMs);
    }
    return new DropDuplicates(input, keys);
  }
}
