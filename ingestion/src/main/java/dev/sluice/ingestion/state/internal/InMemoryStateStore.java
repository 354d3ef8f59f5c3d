package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreMetrics;
import dev.sluice.table.data.Row;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One batch's view of the state: the provider's map of version N-1, left untouched, under a change
 * log of this batch's puts and removes. Commit hands the change log to the provider (which writes
 * it as {@code N.delta} and applies it to the map); abort just drops it, so neither copies the map.
 *
 * <p>Both maps hold encoded keys and values ({@link BytesMap}): a lookup encodes the key into a reused
 * buffer and compares bytes, so neither a key row's {@code hashCode} nor a boxed copy of it is needed;
 * rows are decoded only when a caller asks for a value or iterates.
 */
final class InMemoryStateStore implements StateStore {
  /** Marks a removed key in the change log (compared by identity: an empty value row also encodes as no bytes). */
  static final byte[] REMOVED = new byte[0];

  private enum Status { OPEN, COMMITTED, ABORTED, REPLACED, FAILED }

  private final InMemoryStateStoreProvider provider;
  private final long version;
  private final BytesMap base;
  private final StateRowCodec codec;
  private BytesMap changes = new BytesMap();
  private long size;
  private Status status = Status.OPEN;
  private StateStoreMetrics metrics;

  InMemoryStateStore(InMemoryStateStoreProvider provider, long version, BytesMap base, StateRowCodec codec) {
    this.provider = provider;
    this.version = version;
    this.base = base;
    this.codec = codec;
    this.size = base.size();
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public Row get(Row key) {
    checkOpen();
    byte[] value = lookup(key);
    return value == null ? null : codec.decodeValue(value);
  }

  @Override
  public boolean contains(Row key) {
    checkOpen();
    return lookup(key) != null;
  }

  private byte[] lookup(Row key) {
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    int hash = BytesMap.hash(buf, 0, len);
    byte[] changed = changes.get(buf, 0, len, hash);
    if (changed != null) {
      return changed == REMOVED ? null : changed;
    }
    return base.get(buf, 0, len, hash);
  }

  @Override
  public void put(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    int hash = BytesMap.hash(buf, 0, len);
    byte[] encodedValue = codec.encodeValue(value);
    byte[] stored = changes.storedKey(buf, 0, len, hash);
    boolean inBase = false;
    if (stored == null) {
      // Share the base's key array when there is one: after the commit the map holds one copy.
      stored = base.storedKey(buf, 0, len, hash);
      inBase = stored != null;
      if (stored == null) {
        stored = java.util.Arrays.copyOf(buf, len);
      }
    }
    byte[] previous = changes.put(stored, hash, encodedValue);
    if (previous == null ? !inBase : previous == REMOVED) {
      size++;
    }
  }

  /** One encoding and one probe of each map for a new key (contains + put would take five probes). */
  @Override
  public boolean putIfAbsent(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    int hash = BytesMap.hash(buf, 0, len);
    byte[] changed = changes.get(buf, 0, len, hash);
    byte[] stored;
    if (changed != null) {
      if (changed != REMOVED) {
        return false;
      }
      stored = changes.storedKey(buf, 0, len, hash); // removed in this batch: put it back
    } else {
      if (base.get(buf, 0, len, hash) != null) {
        return false;
      }
      stored = java.util.Arrays.copyOf(buf, len);
    }
    changes.put(stored, hash, codec.encodeValue(value));
    size++;
    return true;
  }

  @Override
  public void remove(Row key) {
    checkOpen();
    int len = codec.encodeKey(Objects.requireNonNull(key, "key"));
    byte[] buf = codec.keyBytes();
    removeEncoded(buf, len, BytesMap.hash(buf, 0, len));
  }

  private void removeEncoded(byte[] buf, int len, int hash) {
    byte[] previous = changes.get(buf, 0, len, hash);
    byte[] inBase = base.storedKey(buf, 0, len, hash);
    if (previous == null ? inBase != null : previous != REMOVED) {
      size--;
    }
    if (inBase != null) {
      changes.put(inBase, hash, REMOVED);
    } else if (previous != null) {
      changes.remove(buf, 0, len, hash); // a key added and removed in the same batch leaves no trace in the delta
    }
  }

  @Override
  public Iterator<StateEntry> iterator() {
    checkOpen();
    return new MergedIterator(changes.copy());
  }

  /** Decodes only the values; removes by the stored key bytes. */
  @Override
  public long removeWhere(Predicate<Row> test) {
    checkOpen();
    BytesMap changed = changes.copy();
    long removed = 0;
    for (int slot = 0; slot < changed.capacity(); slot++) {
      byte[] k = changed.keyAt(slot);
      if (k != null && changed.valueAt(slot) != REMOVED && test.test(codec.decodeValue(changed.valueAt(slot)))) {
        removeEncoded(k, k.length, changed.hashAt(slot));
        removed++;
      }
    }
    for (int slot = 0; slot < base.capacity(); slot++) {
      byte[] k = base.keyAt(slot);
      if (k != null && changed.get(k, 0, k.length, base.hashAt(slot)) == null
          && test.test(codec.decodeValue(base.valueAt(slot)))) {
        removeEncoded(k, k.length, base.hashAt(slot));
        removed++;
      }
    }
    return removed;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void commit() {
    checkOpen();
    long start = System.nanoTime();
    status = Status.FAILED;
    InMemoryStateStoreProvider.CommitOutcome outcome = provider.commit(version, changes);
    long millis = (System.nanoTime() - start) / 1_000_000;
    metrics = new StateStoreMetrics(size, outcome.updated(), outcome.removed(), outcome.memoryUsedBytes(), millis,
        provider.customMetrics());
    status = Status.COMMITTED;
    changes = new BytesMap(); // the provider's map now holds the entries; the log's slots would only waste heap
  }

  @Override
  public void abort() {
    if (status == Status.OPEN) {
      status = Status.ABORTED;
      changes = new BytesMap();
    }
  }

  @Override
  public StateStoreMetrics metrics() {
    if (metrics != null) {
      return metrics;
    }
    long updated = 0;
    for (int slot = 0; slot < changes.capacity(); slot++) {
      if (changes.keyAt(slot) != null && changes.valueAt(slot) != REMOVED) {
        updated++;
      }
    }
    return new StateStoreMetrics(size, updated, changes.size() - updated, provider.memoryEstimate(), 0,
        provider.customMetrics());
  }

  /** Called when the provider hands out a newer store, whose commit would change this one's base. */
  void replaced() {
    if (status == Status.OPEN) {
      status = Status.REPLACED;
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

  /** The change log's entries (as of the iterator's creation), then the base entries it doesn't shadow. */
  private final class MergedIterator implements Iterator<StateEntry> {
    private final BytesMap changed;
    private int changedSlot;
    private int baseSlot;
    private StateEntry next;

    MergedIterator(BytesMap changed) {
      this.changed = changed;
    }

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      while (changedSlot < changed.capacity()) {
        int slot = changedSlot++;
        byte[] k = changed.keyAt(slot);
        if (k != null && changed.valueAt(slot) != REMOVED) {
          next = new StateEntry(codec.decodeKey(k), codec.decodeValue(changed.valueAt(slot)));
          return true;
        }
      }
      while (baseSlot < base.capacity()) {
        int slot = baseSlot++;
        byte[] k = base.keyAt(slot);
        if (k != null && changed.get(k, 0, k.length, base.hashAt(slot)) == null) {
          next = new StateEntry(codec.decodeKey(k), codec.decodeValue(base.valueAt(slot)));
          return true;
        }
      }
      return false;
    }

    @Override
    public StateEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      StateEntry out = next;
      next = null;
      return out;
    }
  }
}
