package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.Batch;
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
 *
 * <p>An event time after the batch's limit (its timestamp plus the query's {@code maxFutureSkew}) can't be
 * real yet: one such value (epoch milliseconds read as seconds) would move the watermark millennia ahead
 * and make every later row late, for good. Such rows still pass, but are only counted ({@link
 * #futureRows}), never part of the maximum.
 */
public final class EventTimeWatermark implements Transform {
  public static final String DELAY_METADATA = "spark.watermarkDelayMs";

  private final StructType schema;
  private final int column;
  private final String columnName;
  private final long delayMs;
  private long batchMax = Long.MIN_VALUE;
  private long batchMin = Long.MAX_VALUE;
  private long maxEventTimeMs = Long.MAX_VALUE;
  private long futureRows;
  private long futureMax = Long.MIN_VALUE;
  /** This step's own watermark (its greatest event time so far minus the delay), or MIN_VALUE before any. */
  private long operatorWatermark = Long.MIN_VALUE;

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
    input.forEachTimestamp(column, (row, micros) -> {
      long ms = micros == Long.MIN_VALUE || micros == Long.MAX_VALUE ? micros : Math.floorDiv(micros, 1000L);
      if (ms > maxEventTimeMs) {
        futureRows++;
        futureMax = Math.max(futureMax, ms);
        return;
      }
      batchMax = Math.max(batchMax, ms);
      batchMin = Math.min(batchMin, ms);
    });
    return input;
  }

  /** The watermark after a batch: the event-time maximum seen so far minus the delay, or {@code current}. */
  public long advance(long current) {
    if (batchMax != Long.MIN_VALUE) {
      operatorWatermark = Math.max(operatorWatermark, batchMax - delayMs);
    }
    // Before its first event a step doesn't hold the query's watermark back (nor forward): it stays where it is.
    return operatorWatermark == Long.MIN_VALUE ? current : Math.max(current, operatorWatermark);
  }

  /** This step's own watermark after the last {@link #advance}, MIN_VALUE before any event; kept in commits. */
  public long operatorWatermark() {
    return operatorWatermark;
  }

  /** Resumes this step's own watermark from the checkpoint. */
  public void restoreOperatorWatermark(long value) {
    operatorWatermark = value;
  }

  /**
   * Forgets the last batch's extremes (called by the runner before each batch); event times after {@code
   * maxEventTimeMs} in the coming batch will not move the watermark.
   */
  public void startBatch(long maxEventTimeMs) {
    this.maxEventTimeMs = maxEventTimeMs;
    batchMax = Long.MIN_VALUE;
    batchMin = Long.MAX_VALUE;
    futureRows = 0;
    futureMax = Long.MIN_VALUE;
  }

  /** Rows of the last batch whose event time was after its limit, and so left out of the watermark. */
  public long futureRows() {
    return futureRows;
  }

  /** The greatest event time left out of the watermark in the last batch (epoch ms), if any. */
  public long futureMax() {
    return futureMax;
  }

  /**
   * Event-time statistics of the last batch for progress ({@code eventTime}: {@code max} and {@code min} of the
   * times counted, and {@code futureRows} when some were after the limit), empty when no rows had one.
   */
  public Map<String, String> batchStats() {
    Map<String, String> out = new LinkedHashMap<>();
    if (batchMax != Long.MIN_VALUE) {
      out.put("max", Instant.ofEpochMilli(batchMax).toString());
      out.put("min", Instant.ofEpochMilli(batchMin).toString());
    }
    if (futureRows > 0) {
      out.put("futureRows", Long.toString(futureRows));
    }
    return out;
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
