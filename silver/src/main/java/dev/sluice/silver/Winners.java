package dev.sluice.silver;

import dev.sluice.table.data.Row;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The winning change per key of a partition by {@link VersionOrder}, in order of first arrival, and the table's row
 * of each key once {@link #attach}ed. An open-addressing table sized for every change having a key of its own (most
 * do), over the keys' cached hashes.
 *
 * <p>Keys arrive in no order, so each probe of a table of a quarter million keys is a cache miss; probing one key
 * after another waited for each miss in turn (these lookups were ~40 % of choosing the winners). Keys are therefore
 * taken {@value #CHUNK} at a time: their hashes first, then their home slots read in a loop whose reads don't depend
 * on each other (the processor overlaps their misses), then the probes, which find those slots in the cache.
 */
final class Winners {
  private static final int CHUNK = 256;

  private final Change[] slots;
  private final Row[] current;
  private final int[] hashes;
  private final int[] arrival;
  private final int mask;
  private final int[] chunk = new int[CHUNK];
  private int size;
  // Written by touch so that its reads are not optimised away; never read.
  @SuppressWarnings("unused")
  private int touched;

  private Winners(int changes) {
    int capacity = Integer.highestOneBit(Math.max(8, changes) * 2 - 1) << 1;
    slots = new Change[capacity];
    current = new Row[capacity];
    hashes = new int[capacity];
    arrival = new int[Math.max(1, changes)];
    mask = capacity - 1;
  }

  /** The winners of {@code changes} (in arrival order); counts each loser as superseded. */
  static Winners of(List<Change> changes, MergeLedger ledger) {
    Winners w = new Winners(changes.size());
    for (int from = 0; from < changes.size(); from += CHUNK) {
      int n = Math.min(CHUNK, changes.size() - from);
      for (int i = 0; i < n; i++) {
        w.chunk[i] = spread(changes.get(from + i).key().hashCode());
      }
      w.touch(n);
      for (int i = 0; i < n; i++) {
        if (!w.offer(changes.get(from + i), w.chunk[i])) {
          ledger.superseded++;
        }
      }
    }
    return w;
  }

  /**
   * Notes the table's rows of the winners' keys: {@code rows}, with their key values at {@code keyPositions}, each
   * row of a winner's key as {@code matched} makes it; the first row of a key counts, rows of other keys are skipped.
   */
  void attach(Iterable<Row> rows, int[] keyPositions, UnaryOperator<Row> matched) {
    Row[] pending = new Row[CHUNK];
    List<?>[] keys = new List<?>[CHUNK];
    int n = 0;
    for (Row row : rows) {
      List<Object> key = SilverSchemas.key(row, keyPositions);
      if (key == null) {
        continue;
      }
      pending[n] = row;
      keys[n] = key;
      chunk[n] = spread(key.hashCode());
      if (++n == CHUNK) {
        attachChunk(pending, keys, n, matched);
        n = 0;
      }
    }
    attachChunk(pending, keys, n, matched);
  }

  private void attachChunk(Row[] rows, List<?>[] keys, int n, UnaryOperator<Row> matched) {
    touch(n);
    for (int i = 0; i < n; i++) {
      int slot = find(keys[i], chunk[i]);
      if (slot >= 0) {
        Row row = matched.apply(rows[i]);
        if (current[slot] == null) {
          current[slot] = row;
        }
      }
    }
  }

  /** Notes the table's row of {@code key} (one of the winners' keys). */
  void attach(List<Object> key, Row row) {
    int slot = find(key, spread(key.hashCode()));
    if (slot >= 0 && current[slot] == null) {
      current[slot] = row;
    }
  }

  private void touch(int n) {
    int acc = 0;
    for (int i = 0; i < n; i++) {
      acc += hashes[chunk[i] & mask];
    }
    touched = acc;
  }

  /** Takes {@code c} as its key's winner if it is the key's first change or wins; false if a change came before. */
  private boolean offer(Change c, int hash) {
    int slot = hash & mask;
    int h;
    while ((h = hashes[slot]) != 0) {
      Change held = slots[slot];
      if (h == hash && held.key().equals(c.key())) {
        if (VersionOrder.laterWins(held, c)) {
          slots[slot] = c;
        }
        return false;
      }
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    slots[slot] = c;
    arrival[size++] = slot;
    return true;
  }

  private int find(Object key, int hash) {
    int slot = hash & mask;
    int h;
    while ((h = hashes[slot]) != 0) {
      if (h == hash && slots[slot].key().equals(key)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** Never 0, which marks an empty slot; mixed so that the low bits used as the slot vary. */
  private static int spread(int hashCode) {
    int h = hashCode * 0x9E3779B9;
    h ^= h >>> 16;
    return h == 0 ? 1 : h;
  }

  int size() {
    return size;
  }

  /** The winner of the {@code i}-th key to arrive. */
  Change change(int i) {
    return slots[arrival[i]];
  }

  /** The table's row of the {@code i}-th key to arrive, or null. */
  Row current(int i) {
    return current[arrival[i]];
  }

  /** The keys, in order of first arrival, as a set view (for reading their table rows and tombstones). */
  Set<List<Object>> keys() {
    return new AbstractSet<>() {
      @Override
      public boolean contains(Object o) {
        return o != null && find(o, spread(o.hashCode())) >= 0;
      }

      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<List<Object>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override
          public boolean hasNext() {
            return i < size;
          }

          @Override
          public List<Object> next() {
            if (i >= size) {
              throw new NoSuchElementException();
            }
            return change(i++).key();
          }
        };
      }
    };
  }
}
