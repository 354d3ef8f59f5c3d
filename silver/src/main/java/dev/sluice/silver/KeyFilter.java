package dev.sluice.silver;

import java.util.List;

/**
 * A Bloom filter of a batch's merge keys (by their hash codes): {@link #mightHold} is true for every key added and for
 * about 5 % of the others (8 bits and 2 probes per key; at most 16 MB, so a batch of more than 16 M keys lets more
 * through). What passes is checked against the keys themselves afterwards: the filter only saves work.
 */
final class KeyFilter {
  private static final int MAX_BITS = 1 << 27;

  private final long[] words;
  private final int mask;

  KeyFilter(int keys) {
    int bits = Integer.highestOneBit((int) Math.min(MAX_BITS, Math.max(64L, 8L * keys) * 2 - 1));
    words = new long[bits >>> 6];
    mask = bits - 1;
  }

  void add(List<Object> key) {
    add(key.hashCode());
  }

  /** Adds the key whose {@link List#hashCode} is {@code keyHash}. */
  void add(int keyHash) {
    int h = keyHash * 0x9E3779B9;
    int a = h & mask;
    int b = Integer.rotateLeft(h, 16) & mask;
    words[a >>> 6] |= 1L << a;
    words[b >>> 6] |= 1L << b;
  }

  boolean mightHold(List<Object> key) {
    int h = key.hashCode() * 0x9E3779B9;
    int a = h & mask;
    int b = Integer.rotateLeft(h, 16) & mask;
    return (words[a >>> 6] & (1L << a)) != 0 && (words[b >>> 6] & (1L << b)) != 0;
  }
}
