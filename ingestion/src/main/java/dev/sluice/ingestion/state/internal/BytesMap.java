package dev.sluice.ingestion.state.internal;

import java.util.Arrays;

/**
 * An open-addressing hash map from encoded keys to encoded values (both {@code byte[]}, compared by
 * content), with linear probing and backward-shift deletion (no tombstones). Per entry it holds two
 * array references and the key's hash, so a state entry costs its two byte arrays plus ~16-24 bytes,
 * where a {@code HashMap<Row, Row>} costs a node, two rows, two {@code Object[]} and a box per column.
 * Lookups take the key as a slice of a scratch buffer, so probing allocates nothing.
 *
 * <p>A slot's hash is never 0, so 0 marks an empty slot: probing reads only the hash array until a
 * hash matches, which saves a cache miss per probed slot in a map of millions of entries.
 *
 * <p>A key's home slot is its hash mixed with a seed that depends on the capacity ({@link #home}).
 * Without the seed, maps of every size would order keys alike, and copying a large map's slots in order into a
 * smaller (growing) one, which is what loading a snapshot does, packs them into one probe run: quadratic (a 10
 * M-key store took many minutes to load). A map of the same capacity gets them in its own slot order, which is
 * harmless; the order stays deterministic.
 *
 * <p>Slots are addressed by index ({@link #capacity()}, {@link #keyAt}, {@link #valueAt}) for
 * allocation-free iteration; an empty slot has a null key. Each slot also holds an int tag that moves with its
 * entry (0 unless set): the state store keeps there where an entry's change of the current batch sits in its
 * change log, so a key changed twice in a batch is logged once without a second map. Not thread-safe.
 *
 * <p>A map {@link #withLongValues} keeps each value as a {@code long} instead of an array when it is the encoding of
 * one non-null LONG ({@link LongValues}); {@link #valueAt} and the other byte views encode it when asked. A value of
 * another shape turns such a map into an ordinary one, once.
 */
final class BytesMap {
  private static final int MIN_CAPACITY = 16;

  private byte[][] keys;
  private byte[][] values;
  /** The values when they are longs (then {@link #values} is null). */
  private long[] longs;
  private int[] hashes;
  private int[] tags;
  private int size;
  private int mask;
  private int seed;
  // Written by touchHomes so that its reads are not optimised away; never read.
  @SuppressWarnings("unused")
  private int touched;

  BytesMap() {
    this(MIN_CAPACITY);
  }

  BytesMap(int expected) {
    int capacity = Integer.highestOneBit(Math.max(MIN_CAPACITY, expected * 2 - 1)) << 1;
    allocate(Math.max(MIN_CAPACITY, capacity));
  }

  private BytesMap(long[] longs) {
    this.longs = longs;
    allocate(MIN_CAPACITY);
  }

  /** An empty map that keeps values of one non-null LONG as longs ({@link LongValues}). */
  static BytesMap withLongValues() {
    return new BytesMap(new long[0]);
  }

  private BytesMap(BytesMap other) {
    keys = other.keys.clone();
    values = other.values == null ? null : other.values.clone();
    longs = other.longs == null ? null : other.longs.clone();
    hashes = other.hashes.clone();
    tags = other.tags.clone();
    size = other.size;
    mask = other.mask;
    seed = other.seed;
  }

  /** A copy that later changes to either map don't affect (the byte arrays are shared: they are never changed). */
  BytesMap copy() {
    return new BytesMap(this);
  }

  int size() {
    return size;
  }

  int capacity() {
    return keys.length;
  }

  /** The key in {@code slot}, or null for an empty slot. */
  byte[] keyAt(int slot) {
    return keys[slot];
  }

  /** The value in {@code slot} as bytes (made afresh for a long). */
  byte[] valueAt(int slot) {
    return longs != null ? LongValues.encode(longs[slot]) : values[slot];
  }

  /** Whether the values are held as longs: {@link #longAt} reads them. */
  boolean hasLongValues() {
    return longs != null;
  }

  /** The value of the occupied {@code slot} of a map {@link #hasLongValues holding longs}. */
  long longAt(int slot) {
    return longs[slot];
  }

  int hashAt(int slot) {
    return hashes[slot];
  }

  int tagAt(int slot) {
    return tags[slot];
  }

  void setTag(int slot, int tag) {
    tags[slot] = tag;
  }

  /** Replaces the value of the occupied {@code slot}. */
  void setValueAt(int slot, byte[] value) {
    if (longs != null && LongValues.fits(value)) {
      longs[slot] = LongValues.decode(value);
      return;
    }
    holdArrays();
    values[slot] = value;
  }

  /** Replaces the value of the occupied {@code slot} with a long's encoding. */
  void setLongAt(int slot, long value) {
    if (longs != null) {
      longs[slot] = value;
    } else {
      values[slot] = LongValues.encode(value);
    }
  }

  /** Sets every slot's tag back to 0. */
  void clearTags() {
    Arrays.fill(tags, 0);
  }

  /** The slot holding the key in {@code buf[off, off + len)} with hash {@code hash}, or -1. */
  int slotOf(byte[] buf, int off, int len, int hash) {
    return find(buf, off, len, hash);
  }

  /**
   * Reads the home slot of each of the first {@code n} hashes in all four slot arrays, so that the probes and the
   * inserts that follow find them in the cache: these reads are independent, so the processor overlaps their misses
   * (an insert's stores into three cold arrays otherwise stalled it as long as the probe).
   */
  void touchHomes(int[] keyHashes, int n) {
    int acc = 0;
    for (int i = 0; i < n; i++) {
      int slot = home(keyHashes[i]);
      acc += hashes[slot] + tags[slot];
      if (keys[slot] == null && (longs != null ? longs[slot] == 0 : values[slot] == null)) {
        acc++;
      }
    }
    touched = acc;
  }

  /**
   * Adds {@code key} (not in the map; the map keeps the array) with {@code value} and {@code tag}.
   */
  void insert(byte[] key, int hash, byte[] value, int tag) {
    storeNew(freeSlot(hash), key, hash, value, tag);
  }

  /** Stores a key not in the map in the empty {@code slot} (the first of its probe run). */
  private void storeNew(int slot, byte[] key, int hash, byte[] value, int tag) {
    if (longs != null && LongValues.fits(value)) {
      longs[slot] = LongValues.decode(value);
    } else {
      holdArrays();
      values[slot] = value;
    }
    keys[slot] = key;
    hashes[slot] = hash;
    tags[slot] = tag;
    added();
  }

  /** Adds {@code key} (not in the map; the map keeps the array) with a long's encoding as its value. */
  void insertLong(byte[] key, int hash, long value, int tag) {
    if (longs == null) {
      insert(key, hash, LongValues.encode(value), tag);
      return;
    }
    int slot = freeSlot(hash);
    keys[slot] = key;
    longs[slot] = value;
    hashes[slot] = hash;
    tags[slot] = tag;
    added();
  }

  /** The first empty slot of {@code hash}'s probe run, where a key not in the map goes. */
  private int freeSlot(int hash) {
    int slot = home(hash);
    while (hashes[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** Counts an entry just stored, growing the table past three quarters full. */
  private void added() {
    if (++size * 4 > keys.length * 3) {
      grow();
    }
  }

  /**
   * Empties the occupied {@code slot}. Later entries of its probe run may move back into it, never into a slot
   * before it in a scan that starts after an empty slot ({@link #emptySlot}): such a scan looks at {@code slot}
   * again after removing there, and sees every entry once.
   */
  void removeAt(int slot) {
    deleteSlot(slot);
  }

  /**
   * Removes every entry whose slot {@code test} accepts, calling {@code removing} with the slot just before it goes;
   * returns how many went. Neither may change the map. One pass empties the slots, a second moves each entry left
   * behind to the first empty slot of its probe run: an eviction removing most of a map's entries one at a time
   * shifted the rest of each probe run back once per removal (a deduplication's evictions were ~9 % of silver's
   * query thread). When either throws, the entries removed so far stay removed and the rest stay findable.
   */
  long removeIf(java.util.function.IntPredicate test, java.util.function.IntConsumer removing) {
    int capacity = keys.length;
    // No probe run crosses a slot that is empty before the first pass, so the second starts after one.
    int start = emptySlot();
    long removed = 0;
    try {
      for (int n = 1; n < capacity; n++) {
        int slot = (start + n) & mask;
        if (hashes[slot] != 0 && test.test(slot)) {
          removing.accept(slot);
          clearSlot(slot);
          size--;
          removed++;
        }
      }
    } finally {
      if (removed > 0) {
        closeGaps(start);
      }
    }
    return removed;
  }

  /**
   * Moves each entry to the first empty slot from its home, in slot order from after {@code start} (empty before the
   * removals): every slot an entry's probe passes was filled before it and stays filled.
   */
  private void closeGaps(int start) {
    for (int n = 1; n < keys.length; n++) {
      int slot = (start + n) & mask;
      int hash = hashes[slot];
      if (hash == 0) {
        continue;
      }
      int to = home(hash);
      while (to != slot && hashes[to] != 0) {
        to = (to + 1) & mask;
      }
      if (to != slot) {
        keys[to] = keys[slot];
        if (longs != null) {
          longs[to] = longs[slot];
        } else {
          values[to] = values[slot];
        }
        hashes[to] = hash;
        tags[to] = tags[slot];
        clearSlot(slot);
      }
    }
  }

  private void clearSlot(int slot) {
    keys[slot] = null;
    if (longs != null) {
      longs[slot] = 0;
    } else {
      values[slot] = null;
    }
    hashes[slot] = 0;
    tags[slot] = 0;
  }

  /** An empty slot (the map is never full): a scan of every slot that starts after it sees each entry once. */
  int emptySlot() {
    int slot = 0;
    while (hashes[slot] != 0) {
      slot++;
    }
    return slot;
  }

  /** The longest run of occupied slots (a probe can't be longer), for tests of the slot layout. */
  int longestRun() {
    int longest = 0;
    int run = 0;
    for (int h : hashes) {
      run = h == 0 ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /** Heap bytes of the slot arrays (four per slot, the longs twice as wide), for the memory estimate. */
  long slotBytes() {
    return (longs != null ? 20L : 16L) * keys.length + 64;
  }

  /** The hash of {@code len} bytes from {@code off} (FNV-1a, then a finaliser so that low bits spread). */
  static int hash(byte[] bytes, int off, int len) {
    int h = 0x811C9DC5;
    for (int i = off; i < off + len; i++) {
      h = (h ^ bytes[i]) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    return h == 0 ? 1 : h;
  }

  static int hash(byte[] key) {
    return hash(key, 0, key.length);
  }

  /** The value of the key held in {@code buf[off, off + len)} with hash {@code hash}, or null. */
  byte[] get(byte[] buf, int off, int len, int hash) {
    int slot = find(buf, off, len, hash);
    return slot < 0 ? null : valueAt(slot);
  }

  byte[] get(byte[] key) {
    return get(key, 0, key.length, hash(key));
  }

  /** Stores {@code value} under {@code key} (which the map keeps: don't change it); returns the old value or null. */
  byte[] put(byte[] key, int hash, byte[] value) {
    int slot = home(hash);
    int h;
    while ((h = hashes[slot]) != 0) {
      if (h == hash && Arrays.equals(keys[slot], key)) {
        byte[] old = valueAt(slot);
        setValueAt(slot, value);
        return old;
      }
      slot = (slot + 1) & mask;
    }
    storeNew(slot, key, hash, value, 0);
    return null;
  }

  byte[] put(byte[] key, byte[] value) {
    return put(key, hash(key), value);
  }

  /** Removes the key held in {@code buf[off, off + len)}; returns its value or null. */
  byte[] remove(byte[] buf, int off, int len, int hash) {
    int slot = find(buf, off, len, hash);
    if (slot < 0) {
      return null;
    }
    byte[] old = valueAt(slot);
    deleteSlot(slot);
    return old;
  }

  byte[] remove(byte[] key) {
    return remove(key, 0, key.length, hash(key));
  }

  /** The stored key equal to {@code buf[off, off + len)}, or null (to reuse its array instead of copying). */
  byte[] storedKey(byte[] buf, int off, int len, int hash) {
    int slot = find(buf, off, len, hash);
    return slot < 0 ? null : keys[slot];
  }

  private int find(byte[] buf, int off, int len, int hash) {
    int slot = home(hash);
    int h;
    while ((h = hashes[slot]) != 0) {
      byte[] k;
      if (h == hash && (k = keys[slot]).length == len && Arrays.equals(k, 0, len, buf, off, off + len)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** Empties {@code slot} and moves later entries of its probe run back, so that lookups need no tombstones. */
  private void deleteSlot(int slot) {
    int hole = slot;
    int next = (hole + 1) & mask;
    while (hashes[next] != 0) {
      int home = home(hashes[next]);
      // Move the entry into the hole unless its home lies cyclically in (hole, next].
      boolean stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (!stays) {
        keys[hole] = keys[next];
        if (longs != null) {
          longs[hole] = longs[next];
        } else {
          values[hole] = values[next];
        }
        hashes[hole] = hashes[next];
        tags[hole] = tags[next];
        hole = next;
      }
      next = (next + 1) & mask;
    }
    clearSlot(hole);
    size--;
  }

  private void grow() {
    byte[][] oldKeys = keys;
    byte[][] oldValues = values;
    long[] oldLongs = longs;
    int[] oldHashes = hashes;
    int[] oldTags = tags;
    allocate(oldKeys.length * 2);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        int slot = home(oldHashes[i]);
        while (hashes[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[i];
        if (oldLongs != null) {
          longs[slot] = oldLongs[i];
        } else {
          values[slot] = oldValues[i];
        }
        hashes[slot] = oldHashes[i];
        tags[slot] = oldTags[i];
      }
    }
  }

  /** A value that is not one long's encoding arrived: every value is held as bytes from now on. */
  private void holdArrays() {
    if (longs == null) {
      return;
    }
    byte[][] arrays = new byte[keys.length][];
    for (int slot = 0; slot < keys.length; slot++) {
      if (keys[slot] != null) {
        arrays[slot] = LongValues.encode(longs[slot]);
      }
    }
    values = arrays;
    longs = null;
  }

  private void allocate(int capacity) {
    keys = new byte[capacity][];
    if (longs != null) {
      longs = new long[capacity];
    } else {
      values = new byte[capacity][];
    }
    hashes = new int[capacity];
    tags = new int[capacity];
    mask = capacity - 1;
    seed = hash(new byte[] {(byte) Integer.numberOfTrailingZeros(capacity)});
  }

  /** The slot where {@code hash}'s probe run starts: the seeded hash, mixed (murmur3's finaliser). */
  private int home(int hash) {
    int h = hash ^ seed;
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h & mask;
  }
}
