package dev.sluice.ingestion.state;

import dev.sluice.table.data.Row;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Where an entry's event time is (epoch microseconds; {@link Long#MAX_VALUE}: the entry never expires), so that
 * {@link StateStore#removeUpTo} can find the entries a watermark expires. A store created with the index
 * ({@link StateStoreFactory#create(Location, StateSchema, StateTimeIndex)}) may keep the entries ordered by it and
 * evict with a range scan of only the expired entries; any store can evict by scanning every entry.
 *
 * @param inKey whether the time is a function of the key alone (a window aggregation's window), so that
 *     changing an entry's value never moves it in time; otherwise of the value alone (a deduplication's expiry)
 * @param time the entry's time, from its key when {@code inKey}, else from its value
 * @param longValueColumn the value's column that holds the time as a LONG ({@link #ofLongValueColumn}), which lets
 *     a store read it from its encoded bytes without decoding the value; -1 when {@code time} is a function
 */
public record StateTimeIndex(boolean inKey, ToLongFunction<Row> time, int longValueColumn) {
  public StateTimeIndex {
    Objects.requireNonNull(time, "time");
    if (longValueColumn >= 0 && inKey) {
      throw new IllegalArgumentException("A time in the key has no value column, not " + longValueColumn);
    }
  }

  public StateTimeIndex(boolean inKey, ToLongFunction<Row> time) {
    this(inKey, time, -1);
  }

  /** The time is in the key (the key decides; a value update keeps the entry in place). */
  public static StateTimeIndex ofKey(ToLongFunction<Row> time) {
    return new StateTimeIndex(true, time);
  }

  /** The time is in the value (each put may move the entry in time). */
  public static StateTimeIndex ofValue(ToLongFunction<Row> time) {
    return new StateTimeIndex(false, time);
  }

  /**
   * The time is the value's LONG column {@code column} (epoch microseconds; a null never expires), as a
   * deduplication's expiry.
   */
  public static StateTimeIndex ofLongValueColumn(int column) {
    if (column < 0) {
      throw new IllegalArgumentException("A value column is numbered from 0, not " + column);
    }
    return new StateTimeIndex(false, value -> value.get(column) == null ? Long.MAX_VALUE : (Long) value.get(column),
        column);
  }

  /** The time of the entry {@code key} → {@code value}. */
  public long timeOf(Row key, Row value) {
    return time.applyAsLong(inKey ? key : value);
  }
}
