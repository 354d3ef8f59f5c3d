package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreMetrics;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * One batch's use of a RocksDB store: reads and writes go to the provider's database at once, and every change
 * is also appended to the batch's changelog, which commit uploads. Abort marks the database stale (the next load
 * rebuilds it), so a failed batch never leaks into a later version. Iterators see the database as of their
 * creation and are closed at their end, or at the latest when the store commits or aborts.
 */
final class RocksDbStateStore implements StateStore {
  private static final int MULTI_GET_CHUNK = 1024;

  private enum Status { OPEN, COMMITTED, ABORTED, REPLACED, FAILED }

  private final RocksDbStateStoreProvider provider;
  private final long version;
  private final StateRowCodec codec;
  private final StateFileFormat.Writer changelog;
  private final boolean loadedFromCache;
  private final Map<String, Long> tickersAtLoad;
  private final List<RocksIterator> iterators = new ArrayList<>();
  private long size;
  private long updated;
  private long removed;
  private long gets;
  private long puts;
  private Status status = Status.OPEN;
  private StateStoreMetrics metrics;
  /** The key of the last get and its value (null: none): an aggregation's put follows its get of the same key. */
  private byte[] lastKey;
  private byte[] lastValue;

  RocksDbStateStore(RocksDbStateStoreProvider provider, long version, long size, StateRowCodec codec,
      StateFileFormat.Writer changelog, boolean loadedFromCache) {
    this.provider = provider;
    this.version = version;
    this.size = size;
    this.codec = codec;
    this.changelog = changelog;
    this.loadedFromCache = loadedFromCache;
    this.tickersAtLoad = provider.tickers();
  }

  @Override
  public long version() {
    return version;
  }

  private byte[] key(Row key) {
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    return Arrays.copyOf(codec.keyBytes(), len);
  }

  @Override
  public Row get(Row key) {
    checkOpen();
    gets++;
    try {
      byte[] k = key(key);
      byte[] value = provider.db().get(k);
      lastKey = k;
      lastValue = value;
      return value == null ? null : codec.decodeValue(value);
    } catch (RocksDBException e) {
      throw provider.failure("reading", e);
    }
  }

  @Override
  public boolean contains(Row key) {
    checkOpen();
    gets++;
    return provider.exists(key(key));
  }

  @Override
  public void put(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    byte[] k = key(key);
    byte[] old;
    if (lastKey != null && Arrays.equals(k, lastKey)) {
      old = lastValue;
    } else if (provider.timeIndex() != null && !provider.timeIndex().inKey()) {
      gets++;
      old = read(k); // the old value says where its index entry is
    } else {
      gets++;
      old = provider.exists(k) ? k : null; // existence is all that matters
    }
    if (old == null) {
      size++;
    }
    write(k, old, codec.encodeValue(value));
  }

  /** The values of {@code keys} (null where absent), in one multiGet. */
  private List<byte[]> readAll(List<byte[]> keys) {
    gets += keys.size();
    try {
      return provider.db().multiGetAsList(keys);
    } catch (RocksDBException e) {
      throw provider.failure("reading", e);
    }
  }

  private byte[] read(byte[] k) {
    try {
      return provider.db().get(k);
    } catch (RocksDBException e) {
      throw provider.failure("reading", e);
    }
  }

  @Override
  public boolean putIfAbsent(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    byte[] k = key(key);
    gets++;
    if (provider.exists(k)) {
      return false;
    }
    size++;
    write(k, null, codec.encodeValue(value));
    return true;
  }

  /**
   * Looks the keys up with multiGet and writes the new ones in one write batch, a chunk at a time (fewer JNI calls;
   * RocksDB probes a chunk's keys together).
   */
  @Override
  public boolean[] putAllIfAbsent(List<Row> keys, List<Row> values) {
    checkOpen();
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " values");
    }
    boolean[] put = new boolean[keys.size()];
    // A key put by an earlier chunk is in the database when a later chunk looks it up; within a chunk, this tells.
    Set<ByteBuffer> written = new HashSet<>();
    List<byte[]> chunk = new ArrayList<>(MULTI_GET_CHUNK);
    List<byte[]> newKeys = new ArrayList<>(MULTI_GET_CHUNK);
    List<byte[]> newValues = new ArrayList<>(MULTI_GET_CHUNK);
    for (int from = 0; from < put.length; from += MULTI_GET_CHUNK) {
      int to = Math.min(put.length, from + MULTI_GET_CHUNK);
      chunk.clear();
      written.clear();
      newKeys.clear();
      newValues.clear();
      for (int i = from; i < to; i++) {
        chunk.add(key(keys.get(i)));
      }
      List<byte[]> found = readAll(chunk);
      for (int i = from; i < to; i++) {
        byte[] k = chunk.get(i - from);
        if (found.get(i - from) == null && written.add(ByteBuffer.wrap(k))) {
          newKeys.add(k);
          newValues.add(codec.encodeValue(Objects.requireNonNull(values.get(i), "value")));
          put[i] = true;
        }
      }
      writeAbsent(newKeys, newValues);
    }
    return put;
  }

  private void writeAbsent(List<byte[]> newKeys, List<byte[]> newValues) {
    if (newKeys.isEmpty()) {
      return;
    }
    lastKey = null;
    try {
      provider.putAbsent(newKeys, newValues);
    } catch (RocksDBException e) {
      throw provider.failure("writing", e);
    }
    for (int i = 0; i < newKeys.size(); i++) {
      changelog.putEncoded(newKeys.get(i), newValues.get(i));
    }
    size += newKeys.size();
    updated += newKeys.size();
    puts += newKeys.size();
  }

  /** Writes {@code k} → {@code v} over {@code old} (null: none; for an index in the key, any non-null). */
  private void write(byte[] k, byte[] old, byte[] v) {
    lastKey = null;
    try {
      provider.db().put(provider.writeOptions(), k, v);
      if (provider.timeIndex() != null) {
        provider.reindex(k, old, v);
      }
    } catch (RocksDBException e) {
      throw provider.failure("writing", e);
    }
    changelog.putEncoded(k, v);
    updated++;
    puts++;
  }

  @Override
  public void remove(Row key) {
    checkOpen();
    byte[] k = key(key);
    gets++;
    byte[] old = read(k);
    if (old != null) {
      delete(k, old);
    }
  }

  private void delete(byte[] k, byte[] old) {
    lastKey = null;
    try {
      provider.db().delete(provider.writeOptions(), k);
      if (provider.timeIndex() != null) {
        provider.db().delete(provider.timeColumnFamily(), provider.writeOptions(),
            TimeIndexKeys.of(provider.time(k, old), k));
      }
    } catch (RocksDBException e) {
      throw provider.failure("deleting from", e);
    }
    changelog.removeEncoded(k);
    size--;
    removed++;
  }

  @Override
  public Iterator<StateEntry> iterator() {
    checkOpen();
    RocksIterator it = provider.newIterator();
    iterators.add(it);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        if (status != Status.OPEN || !it.isValid()) {
          close(it);
          return false;
        }
        return true;
      }

      @Override
      public StateEntry next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        StateEntry e = new StateEntry(codec.decodeKey(it.key()), codec.decodeValue(it.value()));
        it.next();
        return e;
      }
    };
  }

  /** Decodes only the values; deletes by the stored key bytes. */
  @Override
  public long removeWhere(Predicate<Row> test) {
    checkOpen();
    long count = 0;
    RocksIterator it = provider.newIterator();
    iterators.add(it);
    try {
      for (; it.isValid(); it.next()) {
        if (test.test(codec.decodeValue(it.value()))) {
          delete(it.key(), it.value());
          count++;
        }
      }
    } finally {
      close(it);
    }
    return count;
  }

  /** With the store's own index, a range scan of the expired entries of the index column family. */
  @Override
  public Eviction removeUpTo(StateTimeIndex index, long upToMicros, BiConsumer<Row, Row> removed) {
    if (index != provider.timeIndex()) {
      return StateStore.super.removeUpTo(index, upToMicros, removed);
    }
    checkOpen();
    long count = 0;
    RocksIterator it = provider.db().newIterator(provider.timeColumnFamily());
    iterators.add(it);
    // The expired keys' values are read a chunk at a time with multiGet: a point read per key was most of an
    // eviction's time (and an eviction most of a RocksDB dedup's batch). The iterator reads a consistent view, so
    // deleting the keys it has passed doesn't disturb it.
    List<byte[]> chunk = new ArrayList<>(MULTI_GET_CHUNK);
    try {
      for (it.seek(TimeIndexKeys.FIRST); it.isValid(); it.next()) {
        byte[] indexKey = it.key();
        long time = TimeIndexKeys.time(indexKey);
        if (time > upToMicros) {
          count += evict(chunk, removed);
          return new Eviction(count, time);
        }
        chunk.add(TimeIndexKeys.key(indexKey));
        if (chunk.size() == MULTI_GET_CHUNK) {
          count += evict(chunk, removed);
        }
      }
      count += evict(chunk, removed);
      return new Eviction(count, Long.MAX_VALUE);
    } finally {
      close(it);
    }
  }

  /** Removes the keys of {@code chunk} (listed by the time index) and empties it; returns how many. */
  private int evict(List<byte[]> chunk, BiConsumer<Row, Row> removed) {
    if (chunk.isEmpty()) {
      return 0;
    }
    List<byte[]> values = readAll(chunk);
    for (int i = 0; i < chunk.size(); i++) {
      byte[] k = chunk.get(i);
      byte[] v = values.get(i);
      if (v == null) {
        throw new IllegalStateException("The event-time index of the state of " + provider.folder()
            + " lists a key the state doesn't have; the local copy is corrupt (restart the query to rebuild it)");
      }
      if (removed != null) {
        removed.accept(codec.decodeKey(k), codec.decodeValue(v));
      }
    }
    lastKey = null;
    try {
      provider.deleteAll(chunk, values);
    } catch (RocksDBException e) {
      throw provider.failure("deleting from", e);
    }
    chunk.forEach(changelog::removeEncoded);
    int n = chunk.size();
    size -= n;
    this.removed += n;
    chunk.clear();
    return n;
  }

  private void close(RocksIterator it) {
    if (iterators.remove(it)) {
      it.close();
    }
  }

  private void closeIterators() {
    iterators.forEach(RocksIterator::close);
    iterators.clear();
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void commit() {
    checkOpen();
    closeIterators();
    long start = System.nanoTime();
    status = Status.FAILED;
    RocksDbStateStoreProvider.CommitOutcome outcome = provider.commit(version, changelog.finish(), size);
    long millis = (System.nanoTime() - start) / 1_000_000;
    metrics = metrics(millis, outcome.metrics());
    status = Status.COMMITTED;
  }

  @Override
  public void abort() {
    if (status == Status.OPEN || status == Status.FAILED) {
      closeIterators();
      changelog.discard();
      provider.invalidate();
      if (status == Status.OPEN) {
        status = Status.ABORTED;
      }
    }
  }

  @Override
  public StateStoreMetrics metrics() {
    return metrics != null ? metrics : metrics(0, Map.of());
  }

  private StateStoreMetrics metrics(long commitMs, Map<String, Long> commit) {
    Map<String, Long> custom = new LinkedHashMap<>(commit);
    provider.tickers().forEach((name, now) -> custom.put(name, now - tickersAtLoad.getOrDefault(name, 0L)));
    custom.putAll(provider.gauges());
    custom.put("rocksdbGetCount", gets);
    custom.put("rocksdbPutCount", puts);
    custom.put("rocksdbLoadedFromCache", loadedFromCache ? 1L : 0L);
    return new StateStoreMetrics(size, updated, removed, custom.get("rocksdbMemUsage"), commitMs, custom);
  }

  /** Called when the provider hands out a newer store. */
  void replaced() {
    if (status == Status.OPEN) {
      closeIterators();
      status = Status.REPLACED;
      provider.invalidate();
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
