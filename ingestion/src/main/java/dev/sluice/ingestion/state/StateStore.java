package dev.sluice.ingestion.state;

import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The state of one stateful operator (one partition) while batch N runs: loaded at version N-1,
 * changed by the batch, then committed as version N (or aborted). Keys and values are rows of the
 * store's {@link StateSchema}; keys compare by value. Not thread-safe: one batch uses it at a time.
 */
public interface StateStore {
  /** The version this store will commit (the batch id + 1: version 0 is the empty initial state). */
  long version();

  /** The value for {@code key}, or null. */
  Row get(Row key);

  /** Whether {@code key} has a value; stores may answer without decoding the value. */
  default boolean contains(Row key) {
    return get(key) != null;
  }

  void put(Row key, Row value);

  /**
   * Puts {@code value} unless {@code key} has one; returns whether it did (a deduplication's one call
   * per row, where stores may look the key up once).
   */
  default boolean putIfAbsent(Row key, Row value) {
    if (contains(key)) {
      return false;
    }
    put(key, value);
    return true;
  }

  /**
   * {@link #putIfAbsent} for each key in turn (a later duplicate of a key put earlier in the list is not put), as
   * one call so that stores may look the keys up together.
   *
   * @return for each index, whether it put {@code values.get(i)}
   */
  default boolean[] putAllIfAbsent(List<Row> keys, List<Row> values) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " values");
    }
    boolean[] put = new boolean[keys.size()];
    for (int i = 0; i < put.length; i++) {
      put[i] = putIfAbsent(keys.get(i), values.get(i));
    }
    return put;
  }

  /**
   * {@link #putAllIfAbsent} where each value is a row of one LONG column, given as {@code values[i]} for the first
   * {@code keys.size()} entries (a deduplication's expiries): a store that keeps such values as longs needs no row
   * or box per key.
   */
  default boolean[] putAllIfAbsentLongs(List<Row> keys, long[] values) {
    List<Row> rows = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      rows.add(Row.of(values[i]));
    }
    return putAllIfAbsent(keys, rows);
  }

  void remove(Row key);

  /** Every entry, in no particular order; changes made during the iteration are not reflected. */
  Iterator<StateEntry> iterator();

  /**
   * Removes every entry whose value {@code test} accepts; {@code test} sees each entry's value once, in no
   * particular order (so it may also note the values it keeps). Stores may do this without decoding keys.
   *
   * @return the number of entries removed
   */
  default long removeWhere(Predicate<Row> test) {
    List<Row> doomed = new ArrayList<>();
    for (Iterator<StateEntry> it = iterator(); it.hasNext(); ) {
      StateEntry e = it.next();
      if (test.test(e.value())) {
        doomed.add(e.key());
      }
    }
    doomed.forEach(this::remove);
    return doomed.size();
  }

  /**
   * Removes every entry whose time under {@code index} is at or before {@code upToMicros} (a watermark's
   * eviction), handing each removed key and value to {@code removed} when given. A store created with {@code
   * index} finds them with a range scan of only those entries; others scan every entry (decoding only the
   * values when the time is in the value and {@code removed} is null).
   *
   * @return how many entries it removed and the lowest time among those left
   */
  default Eviction removeUpTo(StateTimeIndex index, long upToMicros, BiConsumer<Row, Row> removed) {
    long[] lowest = {Long.MAX_VALUE};
    if (!index.inKey() && removed == null) {
      long count = removeWhere(value -> {
        long time = index.time().applyAsLong(value);
        if (time <= upToMicros) {
          return true;
        }
        lowest[0] = Math.min(lowest[0], time);
        return false;
      });
      return new Eviction(count, lowest[0]);
    }
    List<StateEntry> doomed = new ArrayList<>();
    for (Iterator<StateEntry> it = iterator(); it.hasNext(); ) {
      StateEntry e = it.next();
      long time = index.timeOf(e.key(), e.value());
      if (time <= upToMicros) {
        doomed.add(e);
      } else {
        lowest[0] = Math.min(lowest[0], time);
      }
    }
    for (StateEntry e : doomed) {
      if (removed != null) {
        removed.accept(e.key(), e.value());
      }
      remove(e.key());
    }
    return new Eviction(doomed.size(), lowest[0]);
  }

  /**
   * What {@link #removeUpTo} did.
   *
   * @param removed the number of entries removed
   * @param lowestKept the lowest time of an entry left ({@link Long#MAX_VALUE} when none is left, or none expires)
   */
  record Eviction(long removed, long lowestKept) {}

  /** Number of keys now. */
  long size();

  /**
   * Makes the changes durable as {@link #version()}; rewriting an existing version (a re-run batch)
   * replaces it.
   */
  void commit();

  /** Drops the changes; the store must not be used afterwards. */
  void abort();

  /** Metrics of this batch's use of the store (valid after commit). */
  StateStoreMetrics metrics();
}
