package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreMetrics;
import dev.sluice.table.data.GenericRow;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * One batch's view of the state: the provider's map of version N-1, left untouched, under a change
 * log of this batch's puts and removes. Commit hands the change log to the provider (which writes
 * it as {@code N.delta} and applies it to the map); abort just drops it, so neither copies the map.
 */
final class InMemoryStateStore implements StateStore {
  /** Marks a removed key in the change log. */
  static final Row REMOVED = Row.of();

  private enum Status { OPEN, COMMITTED, ABORTED, REPLACED, FAILED }

  private final InMemoryStateStoreProvider provider;
  private final long version;
  private final Map<Row, Row> base;
  private Map<Row, Row> changes = new HashMap<>();
  private long size;
  private Status status = Status.OPEN;
  private StateStoreMetrics metrics;

  InMemoryStateStore(InMemoryStateStoreProvider provider, long version, Map<Row, Row> base) {
    this.provider = provider;
    this.version = version;
    this.base = base;
    this.size = base.size();
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public Row get(Row key) {
    checkOpen();
    Row k = normalize(key);
    Row changed = changes.get(k);
    if (changed != null) {
      return changed == REMOVED ? null : changed;
    }
    return base.get(k);
  }

  @Override
  public void put(Row key, Row value) {
    checkOpen();
    Objects.requireNonNull(value, "value (to delete a key, call remove)");
    Row k = normalize(key);
    Row previous = changes.put(k, value);
    if (previous == null ? !base.containsKey(k) : previous == REMOVED) {
      size++;
    }
  }

  @Override
  public void remove(Row key) {
    checkOpen();
    Row k = normalize(key);
    Row previous = changes.get(k);
    boolean inBase = base.containsKey(k);
    if (previous == null ? inBase : previous != REMOVED) {
      size--;
    }
    if (inBase) {
      changes.put(k, REMOVED);
    } else if (previous != null) {
      changes.remove(k); // a key added and removed in the same batch leaves no trace in the delta
    }
  }

  @Override
  public Iterator<StateEntry> iterator() {
    checkOpen();
    List<StateEntry> changed = new ArrayList<>();
    Set<Row> shadowed = new HashSet<>(changes.keySet());
    changes.forEach((k, v) -> {
      if (v != REMOVED) {
        changed.add(new StateEntry(k, v));
      }
    });
    return new MergedIterator(changed.iterator(), base.entrySet().iterator(), shadowed);
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
    metrics = new StateStoreMetrics(size, outcome.updated(), outcome.removed(), outcome.memoryUsedBytes(), millis);
    status = Status.COMMITTED;
    changes = Map.of(); // the provider's map now holds the entries; the log's nodes would only waste heap
  }

  @Override
  public void abort() {
    if (status == Status.OPEN) {
      status = Status.ABORTED;
      changes = Map.of();
    }
  }

  @Override
  public StateStoreMetrics metrics() {
    if (metrics != null) {
      return metrics;
    }
    long updated = changes.values().stream().filter(v -> v != REMOVED).count();
    return new StateStoreMetrics(size, updated, changes.size() - updated, provider.memoryEstimate(), 0);
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

  /** Map keys need value equality; rows other than GenericRow may compare by identity. */
  private static Row normalize(Row key) {
    Objects.requireNonNull(key, "key");
    return key instanceof GenericRow ? key : Row.of(key.toArray());
  }

  /** The change log's entries, then the base entries it doesn't shadow. */
  private static final class MergedIterator implements Iterator<StateEntry> {
    private final Iterator<StateEntry> changed;
    private final Iterator<Map.Entry<Row, Row>> base;
    private final Set<Row> shadowed;
    private StateEntry next;

    MergedIterator(Iterator<StateEntry> changed, Iterator<Map.Entry<Row, Row>> base, Set<Row> shadowed) {
      this.changed = changed;
      this.base = base;
      this.shadowed = shadowed;
    }

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      if (changed.hasNext()) {
        next = changed.next();
        return true;
      }
      while (base.hasNext()) {
        Map.Entry<Row, Row> e = base.next();
        if (!shadowed.contains(e.getKey())) {
          next = new StateEntry(e.getKey(), e.getValue());
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
