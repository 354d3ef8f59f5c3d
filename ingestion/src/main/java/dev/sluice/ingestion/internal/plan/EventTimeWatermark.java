package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code withWatermark(column, delay)}: passes rows through and remembers the greatest event time
 * it saw in the batch; after the batch the runner moves the watermark to that maximum minus the delay
 * (never backwards). The column is marked in the schema (field metadata {@code spark.watermarkDelayMs},
 * as Spark does) so that stateful steps know the event-time column.
 */
public final class EventTimeWatermark implements Transform {
  public static final String DELAY_METADATA = "spark.watermarkDelayMs";

  private final StructType schema;
  private final int column;
  private final String columnName;
  private final long delayMs;
  private long batchMax = Long.MIN_VALUE;
  private long batchMin = Long.MAX_VALUE;

  private EventTimeWatermark(StructType schema, int column, long delayMs) {
    this.schema = schema;
    this.column = column;
    this.columnName = schema.field(column).name();
    this.delayMs = delayMs;
  }

  public static TransformSpec of(String column, Duration delay) {
    return input -> {
      int index = input.indexOf(column);
      if (index < 0) {
        throw new IllegalArgumentException("withWatermark: column '" + column + "' is not in the stream; its columns"
            + " are " + input.fieldNames());
      }
      if (input.field(index).type() != PrimitiveType.TIMESTAMP) {
        throw new IllegalArgumentException("withWatermark: column '" + column + "' is " + input.field(index).type()
            + ", but an event-time column must be a timestamp. Convert it first, e.g. withColumn(\"" + column
            + "\", \"to_timestamp(" + column + ")\").");
      }
      List<StructField> fields = new ArrayList<>(input.fields());
      StructField f = fields.get(index);
      Map<String, Object> metadata = new LinkedHashMap<>(f.metadata());
      metadata.put(DELAY_METADATA, delay.toMillis());
      fields.set(index, new StructField(f.name(), f.type(), f.nullable(), metadata));
      return new EventTimeWatermark(new StructType(fields), index, delay.toMillis());
    };
  }

  /** The event-time column and delay declared on {@code schema}, if any (the last one declared wins). */
  public static java.util.Optional<Map.Entry<String, Long>> declared(StructType schema) {
    Map.Entry<String, Long> found = null;
    for (StructField f : schema.fields()) {
      Object delay = f.metadata().get(DELAY_METADATA);
      if (delay instanceof Number n) {
        found = Map.entry(f.name(), n.longValue());
      }
    }
    return java.util.Optional.ofNullable(found);
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Batch apply(Batch input, BatchInfo info) {
    for (Row r : input.rows()) {
      Object v = r.get(column);
      if (v instanceof Instant t) {
        long ms = t.toEpochMilli();
        batchMax = Math.max(batchMax, ms);
        batchMin = Math.min(batchMin, ms);
      }
    }
    return input;
  }

  /** The watermark after a batch: the event-time maximum seen so far minus the delay, or {@code current}. */
  public long advance(long current) {
    if (batchMax == Long.MIN_VALUE) {
      return current;
    }
    return Math.max(current, batchMax - delayMs);
  }

  /** Forgets the batch's extremes (called by the runner after each batch). */
  public void resetBatch() {
    batchMax = Long.MIN_VALUE;
    batchMin = Long.MAX_VALUE;
  }

  /** Event-time statistics of the last batch for progress ({@code eventTime}), empty when no rows had one. */
  public Map<String, String> batchStats() {
    if (batchMax == Long.MIN_VALUE) {
      return Map.of();
    }
    return Map.of("max", Instant.ofEpochMilli(batchMax).toString(), "min", Instant.ofEpochMilli(batchMin).toString());
  }

  public String columnName() {
    return columnName;
  }

  public long delayMs() {
    return delayMs;
  }

  @Override
  public String describe() {
    return "EventTimeWatermark[" + columnName + ", " + Duration.ofMillis(delayMs) + "]";
  }
}
