package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreMetrics;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.Row;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * One batch's view of the state: the provider's map of version N-1, changed in place, and a log of what the batch
 * changed ({@link StateChangeLog}: each key's value before and after). Commit hands the log to the provider, which
 * writes it as {@code N.delta}; abort, a later load or a failed commit undo it. A new key thus costs one probe of
 * one map, where a change log kept beside an untouched map cost a probe of each and a second insert at commit.
 *
 * <p>The map holds encoded keys and values ({@link BytesMap}): a lookup encodes the key into a reused
 * buffer and compares bytes, so neither a key row's {@code hashCode} nor a boxed copy of it is needed;
 * rows are decoded only when a caller asks for a value or iterates.
 */
final class InMemoryStateStore implements StateStore {
  private enum Status { OPEN, COMMITTED, ABORTED, REPLACED, FAILED }

  private final InMemoryStateStoreProvider provider;
  private final long version;
  private final BytesMap map;
  private final StateRowCodec codec;
  private StateChangeLog log = new StateChangeLog();
  private Status status = Status.OPEN;
  private StateStoreMetrics metrics;

  InMemoryStateStore(InMemoryStateStoreProvider provider, long version, BytesMap map, StateRowCodec codec) {
    this.provider = provider;
    this.version = version;
    this.map = map;
    this.codec = codec;
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public Row get(Row key) {
    checkOpen();
    int slot = slotOf(key);
    return slot < 0 ? null : codec.decodeValue(map.valueAt(slot));
  }

  @Override
  public boolean contains(Row key) {
    checkOpen();
    return slotOf(key) >= 0;
  }

  private int slotOf(Row key) {
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    return map.slotOf(buf, 0, len, BytesMap.hash(buf, 0, len));
  }

  @Override
  public void put(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    int hash = BytesMap.hash(buf, 0, len);
    byte[] encodedValue = codec.encodeValue(value);
    int slot = map.slotOf(buf, 0, len, hash);
    if (slot < 0) {
      insert(buf, len, hash, encodedValue);
      return;
    }
    int tag = map.tagAt(slot);
    if (tag != 0) {
      log.setAfter(tag, encodedValue);
    } else {
      map.setTag(slot, log.add(map.keyAt(slot), hash, map.valueAt(slot), encodedValue));
    }
    map.setValueAt(slot, encodedValue);
  }

  /** One encoding and one probe for a new key. */
  @Override
  public boolean putIfAbsent(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    int hash = BytesMap.hash(buf, 0, len);
    if (map.slotOf(buf, 0, len, hash) >= 0) {
      return false;
    }
    insert(buf, len, hash, codec.encodeValue(value));
    return true;
  }

  /**
   * The keys are encoded and hashed first, their home slots then read in one tight loop, and only then probed and
   * inserted in order: in a map of millions of keys each first read of a slot is a cache miss, and reads that do not
   * depend on each other overlap, where one key at a time waited for each miss in turn (the dedup's probes were the
   * largest part of silver's query thread).
   */
  @Override
  public boolean[] putAllIfAbsent(List<Row> keys, List<Row> values) {
    checkOpen();
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " values");
    }
    for (Row value : values) {
      Objects.requireNonNull(value, "value (to delete a key, call remove)");
    }
    return putAll(keys, values, null);
  }

  @Override
  public boolean[] putAllIfAbsentLongs(List<Row> keys, long[] values) {
    checkOpen();
    if (values.length < keys.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.length + " values");
    }
    return putAll(keys, null, values);
  }

  /** The values are {@code rows}, or else one LONG column each in {@code longs}. */
  private boolean[] putAll(List<Row> keys, List<Row> rows, long[] longs) {
    int n = keys.size();
    byte[][] encoded = new byte[n][];
    int[] hashes = new int[n];
    for (int i = 0; i < n; i++) {
      int len = codec.encodeKey(Objects.requireNonNull(keys.get(i), "key"));
      encoded[i] = Arrays.copyOf(codec.keyBytes(), len);
      hashes[i] = BytesMap.hash(encoded[i]);
    }
    map.touchHomes(hashes, n);
    boolean[] put = new boolean[n];
    for (int i = 0; i < n; i++) {
      byte[] key = encoded[i];
      if (map.slotOf(key, 0, key.length, hashes[i]) < 0) {
        Row row = rows == null ? null : rows.get(i);
        if (map.hasLongValues() && (row == null || row.size() == 1 && row.get(0) instanceof Long)) {
          long v = row == null ? longs[i] : (Long) row.get(0);
          map.insertLong(key, hashes[i], v, log.addLong(key, hashes[i], v));
        } else {
          byte[] value = codec.encodeValue(row == null ? Row.of(longs[i]) : row);
          map.insert(key, hashes[i], value, log.add(key, hashes[i], null, value));
        }
        put[i] = true;
      }
    }
    return put;
  }

  private void insert(byte[] buf, int len, int hash, byte[] encodedValue) {
    byte[] stored = Arrays.copyOf(buf, len);
    map.insert(stored, hash, encodedValue, log.add(stored, hash, null, encodedValue));
  }

  @Override
  public void remove(Row key) {
    checkOpen();
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    int slot = map.slotOf(buf, 0, len, BytesMap.hash(buf, 0, len));
    if (slot >= 0) {
      removeAt(slot);
    }
  }

  private void removeAt(int slot) {
    logRemoval(slot);
    map.removeAt(slot);
  }

  /** Logs that the entry in {@code slot} goes (the map still holds it). */
  private void logRemoval(int slot) {
    int tag = map.tagAt(slot);
    if (tag != 0) {
      log.setAfter(tag, StateChangeLog.REMOVED);
    } else if (map.hasLongValues()) {
      log.addRemovedLong(map.keyAt(slot), map.hashAt(slot), map.longAt(slot));
    } else {
      log.add(map.keyAt(slot), map.hashAt(slot), map.valueAt(slot), StateChangeLog.REMOVED);
    }
  }

  /** The entries as of this call: later changes in the batch don't change what it returns. */
  @Override
  public Iterator<StateEntry> iterator() {
    checkOpen();
    BytesMap entries = map.copy();
    return new Iterator<>() {
      private int slot;

      @Override
      public boolean hasNext() {
        while (slot < entries.capacity() && entries.keyAt(slot) == null) {
          slot++;
        }
        return slot < entries.capacity();
      }

      @Override
      public StateEntry next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        int at = slot++;
        return new StateEntry(codec.decodeKey(entries.keyAt(at)), codec.decodeValue(entries.valueAt(at)));
      }
    };
  }

  /** Decodes only the values; one pass over the slots ({@link BytesMap#removeIf}). */
  @Override
  public long removeWhere(Predicate<Row> test) {
    checkOpen();
    return map.removeIf(slot -> test.test(codec.decodeValue(map.valueAt(slot))), this::logRemoval);
  }

  /**
   * With the time in a LONG column of the value (a deduplication's expiry), reads it from each encoded value in place:
   * a run's first batch evicts with a pass over every key (the last run's horizon is gone with its process), and
   * decoding each value to a row was most of that pass.
   */
  @Override
  public Eviction removeUpTo(StateTimeIndex index, long upToMicros, BiConsumer<Row, Row> removed) {
    if (index.inKey() || removed != null || !codec.readsFirstValueLong(index.longValueColumn())) {
      return StateStore.super.removeUpTo(index, upToMicros, removed);
    }
    checkOpen();
    long[] lowest = {Long.MAX_VALUE};
    int from = log.size();
    long count = map.removeIf(slot -> {
      long time = timeAt(map, codec, slot);
      if (time <= upToMicros) {
        return true;
      }
      lowest[0] = Math.min(lowest[0], time);
      return false;
    }, this::logRemoval);
    if (log.size() > from) {
      log.addRange(from, index.longValueColumn(), upToMicros);
      // The delta's range record is replayed on the state as it is now: a key logged before it and changed again
      // must get an entry after it, not have the change folded into its earlier one.
      map.clearTags();
    }
    return new Eviction(count, lowest[0]);
  }

  /**
   * The time in the value of the occupied {@code slot}: its first column, a LONG ({@link StateRowCodec#readsFirstValueLong});
   * values held as longs are the time itself (one non-null LONG column), with no value array to follow.
   */
  static long timeAt(BytesMap map, StateRowCodec codec, int slot) {
    return map.hasLongValues() ? map.longAt(slot) : codec.firstValueLong(map.valueAt(slot));
  }

  @Override
  public long size() {
    return map.size();
  }

  @Override
  public void commit() {
    checkOpen();
    long start = System.nanoTime();
    status = Status.FAILED;
    InMemoryStateStoreProvider.CommitOutcome outcome;
    try {
      outcome = provider.commit(version, log);
    } catch (RuntimeException | Error e) {
      log.undo(map);
      throw e;
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    metrics = new StateStoreMetrics(map.size(), outcome.updated(), outcome.removed(), outcome.memoryUsedBytes(),
        millis, provider.customMetrics());
    status = Status.COMMITTED;
    log = new StateChangeLog();
  }

  @Override
  public void abort() {
    if (status == Status.OPEN) {
      status = Status.ABORTED;
      log.undo(map);
      log = new StateChangeLog();
    }
  }

  @Override
  public StateStoreMetrics metrics() {
    if (metrics != null) {
      return metrics;
    }
    return new StateStoreMetrics(map.size(), log.updated(), log.removed(), provider.memoryEstimate(), 0,
        provider.customMetrics());
  }

  /** Called when the provider hands out a newer store (or closes), which must see version N-1 again. */
  void replaced() {
    if (status == Status.OPEN) {
      status = Status.REPLACED;
      log.undo(map);
      log = new StateChangeLog();
    }
  }

  private void checkOpen() {
    if (status != Status.OPEN) {
      String what = switch (status) {
        case COMMITTED -> "committed";
        case ABORTED -> "aborted";
        case REPLACED -> "replaced by a later load()";
        case FAILED -> "not committed because its commit failed";
        case OPEN -> "open";
      };
      throw StateErrors.notOpen(version, provider.folder(), what);
    }
  }
}
