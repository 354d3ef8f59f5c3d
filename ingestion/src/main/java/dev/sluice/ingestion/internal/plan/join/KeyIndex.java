package dev.sluice.ingestion.internal.plan.join;

import java.util.Objects;

/**
 * The position of each of a static side's distinct keys, for a lookup per stream row: open addressing over a
 * table of hashes, keys and positions in arrays. A {@code HashMap<Object, Integer>} followed a node and a boxed
 * position per lookup besides the key itself, and gold's lookup of each order's customer was half of its query
 * thread, most of it waiting on memory. Immutable once built.
 */
final class KeyIndex {
  private final int[] hashes;
  private final Object[] keys;
  private final int[] positions;
  private final int mask;

  /** Keys {@code keys[i]} at position {@code i}; distinct and non-null. */
  KeyIndex(Object[] keys) {
    int capacity = Integer.highestOneBit(Math.max(4, keys.length * 2 - 1)) << 1;
    this.hashes = new int[capacity];
    this.keys = new Object[capacity];
    this.positions = new int[capacity];
    this.mask = capacity - 1;
    for (int i = 0; i < keys.length; i++) {
      int h = spread(keys[i].hashCode());
      int slot = h & mask;
      while (this.keys[slot] != null) {
        slot = (slot + 1) & mask;
      }
      this.hashes[slot] = h;
      this.keys[slot] = keys[i];
      this.positions[slot] = i;
    }
  }

  /** The position of {@code key}, or -1 when the index lacks it. */
  int positionOf(Object key) {
    int h = spread(key.hashCode());
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      Object k = keys[slot];
      if (k == null) {
        return -1;
      }
      if (hashes[slot] == h && (k == key || Objects.equals(k, key))) {
        return positions[slot];
      }
    }
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
