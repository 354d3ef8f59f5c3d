package dev.sluice.ingestion.state.internal;

import java.util.Arrays;

/**
 * What one batch changed in the in-memory store's map, in the order it changed it: per entry the key, its hash,
 * the value before the batch touched it (null: the key was absent) and the value now ({@link #REMOVED}: removed).
 * The map is changed in place, so this log is both the version's delta (written in log order) and the way back
 * on abort (undone in reverse). A key has one entry while it stays in the map (the map's slot tag points at it);
 * a key removed and put again in the same batch gets a second entry, whose "before" is absent.
 *
 * <p>A value a map holds as a long ({@link BytesMap#withLongValues}) is logged as {@link #LONG} with the long beside
 * it, so that a batch that adds and evicts hundreds of thousands of keys makes no value arrays; {@link #before} and
 * {@link #after} encode it when asked.
 *
 * <p>An eviction that removes entries by a time in their values ({@link InMemoryStateStore#removeUpTo}) logs each
 * removed entry, for undo and the size of the state, and marks them as one {@link Range}: the delta holds one record
 * for the range instead of one per entry (an eviction of half a million keys was half of a deduplication's
 * delta). Replay applies it to the state as it was when the eviction ran, so the store makes every later change get
 * an entry after it.
 */
final class StateChangeLog {
  /** Marks a removed key (compared by identity: an empty value row also encodes as no bytes). */
  static final byte[] REMOVED = new byte[0];
  /** Marks a value logged as a long (by identity), kept in {@link #beforeLongs} or {@link #afterLongs}. */
  private static final byte[] LONG = new byte[0];

  private byte[][] keys = new byte[16][];
  private int[] hashes = new int[16];
  private byte[][] before = new byte[16][];
  private byte[][] after = new byte[16][];
  private long[] beforeLongs = new long[16];
  private long[] afterLongs = new long[16];
  private int size;
  private final java.util.List<Range> ranges = new java.util.ArrayList<>();

  /**
   * Entries {@code [from, to)}, all removed by one eviction: every entry whose time, the value's LONG {@code column},
   * was at most {@code upToMicros} and that the batch had not changed before.
   */
  record Range(int from, int to, int column, long upToMicros) {}

  int size() {
    return size;
  }

  /** Marks the entries logged since entry {@code from} as removed by one eviction up to {@code upToMicros}. */
  void addRange(int from, int column, long upToMicros) {
    if (size > from) {
      ranges.add(new Range(from, size, column, upToMicros));
    }
  }

  /** The ranges, in log order. */
  java.util.List<Range> ranges() {
    return ranges;
  }

  /** Appends an entry; returns its tag (index + 1, so that a map slot's 0 means "not logged"). */
  int add(byte[] key, int hash, byte[] valueBefore, byte[] valueAfter) {
    if (size == keys.length) {
      int capacity = size + (size >> 1);
      keys = Arrays.copyOf(keys, capacity);
      hashes = Arrays.copyOf(hashes, capacity);
      before = Arrays.copyOf(before, capacity);
      after = Arrays.copyOf(after, capacity);
      beforeLongs = Arrays.copyOf(beforeLongs, capacity);
      afterLongs = Arrays.copyOf(afterLongs, capacity);
    }
    keys[size] = key;
    hashes[size] = hash;
    before[size] = valueBefore;
    after[size] = valueAfter;
    return ++size;
  }

  /** A new key whose value is a long. */
  int addLong(byte[] key, int hash, long valueAfter) {
    int tag = add(key, hash, null, LONG);
    afterLongs[tag - 1] = valueAfter;
    return tag;
  }

  /** A key removed whose value before the batch was a long. */
  int addRemovedLong(byte[] key, int hash, long valueBefore) {
    int tag = add(key, hash, LONG, REMOVED);
    beforeLongs[tag - 1] = valueBefore;
    return tag;
  }

  void setAfter(int tag, byte[] value) {
    after[tag - 1] = value;
  }

  /** The bytes entry {@code i}'s key and value now take in the map (none once removed). */
  private long afterBytes(int i) {
    if (after[i] == REMOVED) {
      return 0;
    }
    return keys[i].length + (after[i] == LONG ? LongValues.encodedLength(afterLongs[i]) : after[i].length);
  }

  byte[] key(int i) {
    return keys[i];
  }

  int hash(int i) {
    return hashes[i];
  }

  /** The value before the batch, or null (absent). */
  byte[] before(int i) {
    return before[i] == LONG ? LongValues.encode(beforeLongs[i]) : before[i];
  }

  /** The value now, or {@link #REMOVED}. */
  byte[] after(int i) {
    return after[i] == LONG ? LongValues.encode(afterLongs[i]) : after[i];
  }

  /** Whether the value now is a long ({@link #afterLong}), to be written without making its bytes. */
  boolean afterIsLong(int i) {
    return after[i] == LONG;
  }

  long afterLong(int i) {
    return afterLongs[i];
  }

  /** Whether entry {@code i} leaves no trace in the delta: a key put and removed again in the same batch. */
  boolean isNoOp(int i) {
    return before[i] == null && after[i] == REMOVED;
  }

  /** Keys put (new or changed) by the batch. */
  long updated() {
    long n = 0;
    for (int i = 0; i < size; i++) {
      if (after[i] != REMOVED) {
        n++;
      }
    }
    return n;
  }

  /** Keys the batch removed that the previous version held. */
  long removed() {
    long n = 0;
    for (int i = 0; i < size; i++) {
      if (after[i] == REMOVED && before[i] != null) {
        n++;
      }
    }
    return n;
  }

  /**
   * The change of the encoded bytes of the map's entries (keys and values) entry {@code i} made. Asked by the commit
   * as it writes the entry, not kept as entries come: an eviction logs keys it never read, and their lengths were a
   * cache miss each on the query thread (most of an eviction's time) where the commit reads the keys anyway.
   */
  long bytesChange(int i) {
    return afterBytes(i) - beforeBytes(i);
  }

  /** The bytes entry {@code i}'s key and value took in the map before the batch (none if absent). */
  private long beforeBytes(int i) {
    if (before[i] == null) {
      return 0;
    }
    return keys[i].length + (before[i] == LONG ? LongValues.encodedLength(beforeLongs[i]) : before[i].length);
  }

  /** Puts the map back as it was before the batch and clears its tags. */
  void undo(BytesMap map) {
    for (int i = size - 1; i >= 0; i--) {
      byte[] key = keys[i];
      if (after[i] != REMOVED) {
        int slot = map.slotOf(key, 0, key.length, hashes[i]);
        if (before[i] == null) {
          map.removeAt(slot);
        } else if (before[i] == LONG) {
          map.setLongAt(slot, beforeLongs[i]);
        } else {
          map.setValueAt(slot, before[i]);
        }
      } else if (before[i] == LONG) {
        map.insertLong(key, hashes[i], beforeLongs[i], 0);
      } else if (before[i] != null) {
        map.insert(key, hashes[i], before[i], 0);
      }
    }
    clearTags(map);
  }

  /** Sets the tags of the logged keys back to 0: one probe per entry for a small log, else one pass over the slots. */
  void clearTags(BytesMap map) {
    if ((long) size * 16 > map.capacity()) {
      map.clearTags();
      return;
    }
    for (int i = 0; i < size; i++) {
      byte[] key = keys[i];
      int slot = map.slotOf(key, 0, key.length, hashes[i]);
      if (slot >= 0) {
        map.setTag(slot, 0);
      }
    }
  }
}
