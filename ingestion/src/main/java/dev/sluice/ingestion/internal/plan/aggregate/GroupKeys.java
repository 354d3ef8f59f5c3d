package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The group key of an aggregation: the optional {@code window} struct first, then the key columns. Key
 * values are normalised so that equal SQL values make equal keys ({@code -0.0} and {@code 0.0} are
 * one group, as Spark normalises them; decimals at the column's scale). Null is a value like any other.
 */
final class GroupKeys {
  static final String WINDOW = "window";
  static final StructType WINDOW_TYPE = StructType.of(
      StructField.of("start", PrimitiveType.TIMESTAMP, true), StructField.of("end", PrimitiveType.TIMESTAMP, true));

  private final StructType schema;
  private final int[] columns;
  private final DataType[] types;
  private final TimeWindows windows;
  private final int timeColumn;
  private final int eventTimeKey;

  private GroupKeys(StructType schema, int[] columns, DataType[] types, TimeWindows windows, int timeColumn,
      int eventTimeKey) {
    this.schema = schema;
    this.columns = columns;
    this.types = types;
    this.windows = windows;
    this.timeColumn = timeColumn;
    this.eventTimeKey = eventTimeKey;
  }

  static GroupKeys bind(AggregationSpec spec, StructType input) {
    List<StructField> fields = new ArrayList<>();
    int timeColumn = -1;
    TimeWindows windows = null;
    int eventTimeKey = -1;
    if (spec.window() != null) {
      timeColumn = column(input, "window", spec.window().column());
      DataType t = input.field(timeColumn).type();
      if (t != PrimitiveType.TIMESTAMP) {
        throw AggregationErrors.windowNotTimestamp(spec.window(), t);
      }
      windows = new TimeWindows(spec.window());
      fields.add(StructField.of(WINDOW, WINDOW_TYPE, false));
      if (isWatermarkColumn(spec, timeColumn, input)) {
        eventTimeKey = 0;
      }
    }
    int[] columns = new int[spec.keys().size()];
    DataType[] types = new DataType[columns.length];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = column(input, "group key", spec.keys().get(i));
      types[i] = input.field(columns[i]).type();
      fields.add(input.field(columns[i]));
      if (eventTimeKey < 0 && isWatermarkColumn(spec, columns[i], input)) {
        eventTimeKey = fields.size() - 1;
      }
    }
    return new GroupKeys(new StructType(fields), columns, types, windows, timeColumn, eventTimeKey);
  }

  private static int column(StructType input, String role, String name) {
    int i = input.indexOf(name);
    if (i < 0) {
      throw AggregationErrors.unknownColumn(role, name, input);
    }
    return i;
  }

  private static boolean isWatermarkColumn(AggregationSpec spec, int column, StructType input) {
    WatermarkSpec w = spec.watermark();
    if (w == null || input.indexOf(w.column()) != column) {
      return false;
    }
    if (input.field(column).type() != PrimitiveType.TIMESTAMP) {
      throw AggregationErrors.watermarkNotTimestamp(w, input.field(column).type());
    }
    return true;
  }

  /** Key fields, for the state key schema and the front of the output schema. */
  StructType schema() {
    return schema;
  }

  int width() {
    return schema.size();
  }

  TimeWindows windows() {
    return windows;
  }

  /** The event time of a row (windowed keys only), or null. */
  Instant eventTime(Row row) {
    return (Instant) row.get(timeColumn);
  }

  /** Whether some key part carries the watermarked event time, so that groups can become final. */
  boolean hasEventTimeKey() {
    return eventTimeKey >= 0;
  }

  /**
   * When a group's event time has passed, in microseconds: the window end, or the value of the
   * watermarked key column; {@link Long#MAX_VALUE} for a null key value (never final).
   */
  long eventTimeMicros(Row key) {
    Object v = key.get(eventTimeKey);
    if (v == null) {
      return Long.MAX_VALUE;
    }
    return TimeWindows.micros((Instant) (eventTimeKey == 0 && windows != null ? ((Row) v).get(1) : v));
  }

  /** A new key array with the key columns of {@code row} filled in (position 0 left for the window). */
  Object[] values(Row row) {
    int first = windows == null ? 0 : 1;
    Object[] key = new Object[first + columns.length];
    for (int i = 0; i < columns.length; i++) {
      key[first + i] = normalize(row.get(columns[i]), types[i]);
    }
    return key;
  }

  static Row window(long startMicros, long endMicros) {
    return Row.of(TimeWindows.instant(startMicros), TimeWindows.instant(endMicros));
  }

  private static Object normalize(Object v, DataType type) {
    if (v == null) {
      return null;
    }
    if (type == PrimitiveType.DOUBLE && (Double) v == 0.0d) {
      return 0.0d;
    }
    if (type == PrimitiveType.FLOAT && (Float) v == 0.0f) {
      return 0.0f;
    }
    if (type instanceof DecimalType d && ((BigDecimal) v).scale() != d.scale()) {
      return ((BigDecimal) v).setScale(d.scale(), RoundingMode.HALF_UP);
    }
    return v;
  }
}
