package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.table.data.ProjectedRow;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The resolved columns of a deduplication: the key ordinals in the input, the key schema, and the
 * ordinal of the event-time (watermark) column (-1 without watermark).
 */
record DedupColumns(int[] keyOrdinals, StructType keySchema, int eventTime) {
  /** The positions of every column the deduplication reads: the keys and the event time. */
  int[] columns() {
    if (eventTime < 0) {
      return keyOrdinals;
    }
    int[] out = java.util.Arrays.copyOf(keyOrdinals, keyOrdinals.length + 1);
    out[keyOrdinals.length] = eventTime;
    return out;
  }

  static DedupColumns resolve(String operator, List<String> names, String eventTimeColumn, StructType input) {
    // A column named twice is one key column (Spark's dropDuplicates(a, a) is dropDuplicates(a)).
    Set<Integer> chosen = new LinkedHashSet<>();
    if (names.isEmpty()) {
      for (int i = 0; i < input.size(); i++) {
        chosen.add(i);
      }
    } else {
      for (String name : names) {
        chosen.add(ordinal(operator, name, "column", input));
      }
    }
    int[] ordinals = chosen.stream().mapToInt(Integer::intValue).toArray();
    List<StructField> fields = new ArrayList<>();
    for (int o : ordinals) {
      fields.add(input.field(o));
    }
    int eventTime = -1;
    if (eventTimeColumn != null) {
      eventTime = ordinal(operator, eventTimeColumn, "event-time (watermark) column", input);
      if (input.field(eventTime).type() != PrimitiveType.TIMESTAMP) {
        throw new IllegalArgumentException(operator + ": the event-time column '" + eventTimeColumn + "' is "
            + input.field(eventTime).type().typeName() + ", but a watermark needs a timestamp column; cast it with"
            + " CAST(" + eventTimeColumn + " AS TIMESTAMP) before withWatermark");
      }
    }
    return new DedupColumns(ordinals, new StructType(fields), eventTime);
  }

  private static int ordinal(String operator, String name, String role, StructType input) {
    int i = input.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException(operator + ": unknown " + role + " '" + name + "'; the stream's columns are "
          + input.fieldNames() + "; fix the column name");
    }
    return i;
  }

  /** Whether the event-time column is one of the key columns (then state can be evicted by event time). */
  boolean eventTimeInKey() {
    return keyPosition() >= 0;
  }

  /** The position of the event-time column inside the key, or -1. */
  int keyPosition() {
    for (int i = 0; i < keyOrdinals.length; i++) {
      if (keyOrdinals[i] == eventTime && eventTime >= 0) {
        return i;
      }
    }
    return -1;
  }

  List<String> keyNames(StructType input) {
    List<String> out = new ArrayList<>();
    for (int o : keyOrdinals) {
      out.add(input.field(o).name());
    }
    return out;
  }

  /** The key columns of {@code row}, read through rather than copied (the state store encodes them at once). */
  Row keyOf(Row row) {
    return new ProjectedRow(row, keyOrdinals);
  }

  /** The row's event time, or null (no watermark, or a null value). */
  Instant eventTime(Row row) {
    return eventTime < 0 ? null : (Instant) row.get(eventTime);
  }

  /** The row's event time in epoch microseconds, or null (no watermark, or a null value). */
  Long eventMicros(Row row) {
    Object t = eventTime < 0 ? null : row.get(eventTime);
    return t == null ? null : micros((Instant) t);
  }

  /**
   * Whether the row is older than the watermark: its event time is strictly before it. A null event time is
   * never late (the comparison is unknown, and Spark keeps such rows).
   */
  boolean isLate(Row row, long watermarkMs) {
    Long t = eventMicros(row);
    return t != null && t < watermarkMs * 1000;
  }

  static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }
}
