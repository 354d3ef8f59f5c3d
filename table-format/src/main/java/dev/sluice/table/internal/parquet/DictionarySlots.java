package dev.sluice.table.internal.parquet;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The open-addressing table of Sluice's dictionary writers ({@link BinaryDictionaryWriter},
 * {@link LongDictionaryWriter}): slot → id + 1 (0 = free), linear probing, a power of two at most half full. A
 * writer probes from a value's hash with {@link #mask} and {@link #at}, comparing the entries by its own kind of value,
 * and puts a new id where it found a free slot.
 */
final class DictionarySlots {
  static final int FREE = 0;
  /**
   * Values a page's dictionary takes before a writer gives it up when every one of them was new
   * ({@link #allDistinct}): an id or a timestamp column (bronze's order ids and event times) then writes plain pages
   * at once instead of hashing and storing a first page's worth of values that parquet's end-of-page check throws away
   * (the dictionary plus ids outweigh the plain values). A column that repeats values within its first values keeps
   * its dictionary as before.
   */
  static final int DISTINCT_PROBE = 4096;
  private int[] slots = new int[512];

  /** Whether a dictionary of {@code entries} built from the first page's {@code values} values should be given up. */
  static boolean allDistinct(int entries, int values) {
    return entries >= DISTINCT_PROBE && entries == values;
  }

  int mask() {
    return slots.length - 1;
  }

  /** The id + 1 held by {@code slot}, or {@link #FREE}. */
  int at(int slot) {
    return slots[slot];
  }

  /**
   * Puts {@code id} into the free {@code slot} found by probing; past half full, the table doubles and the ids
   * {@code 0..id} are placed again by {@code hashOf}.
   */
  void put(int slot, int id, IntUnaryOperator hashOf) {
    slots[slot] = id + 1;
    int count = id + 1;
    if (count * 2 > slots.length) {
      int[] grown = new int[slots.length * 2];
      int mask = grown.length - 1;
      for (int i = 0; i < count; i++) {
        int s = hashOf.applyAsInt(i) & mask;
        while (grown[s] != FREE) {
          s = (s + 1) & mask;
        }
        grown[s] = i + 1;
      }
      slots = grown;
    }
  }

  void clear() {
    Arrays.fill(slots, FREE);
  }
}
