package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BytesMapTest {
  /**
   * Loading a snapshot copies a large map's slots in order into a new, growing map; with the same slot order for
   * every capacity that packed the keys into long probe runs (a 10 M-key snapshot took many minutes to load).
   */
  @Test
  void copyingAMapInSlotOrderIntoANewOneStaysLinear() {
    StateRowCodec codec = new StateRowCodec(new StructCodec(StructType.empty().add("id", PrimitiveType.LONG), "key"),
        new StructCodec(StructType.empty(), "value"));
    BytesMap big = new BytesMap();
    for (long i = 0; i < 1_400_000; i++) { // 67 % of the capacity: more than half
      int len = codec.encodeKey(Row.of(i)); // a deduplication's keys: the rate source's ids
      big.put(Arrays.copyOf(codec.keyBytes(), len), EMPTY);
    }
    // Up to just before the copy grows to the big map's capacity, when its probe runs are longest (a grow
    // re-spreads them).
    BytesMap copy = new BytesMap();
    int lastBeforeGrow = big.capacity() / 2 * 3 / 4;
    for (int slot = 0; slot < big.capacity() && copy.size() < lastBeforeGrow; slot++) {
      if (big.keyAt(slot) != null) {
        copy.put(big.keyAt(slot), big.valueAt(slot));
      }
    }
    assertThat(copy.capacity()).isEqualTo(big.capacity() / 2);
    assertThat(copy.longestRun()).as("longest probe run").isLessThan(1_000);
  }

  private static final byte[] EMPTY = new byte[0];

  @Test
  void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
    BytesMap map = new BytesMap();
    Map<String, String> oracle = new HashMap<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 200_000; i++) {
      String k = "k" + random.nextInt(5_000);
      if (random.nextInt(3) == 0) {
        byte[] old = map.remove(bytes(k));
        String expected = oracle.remove(k);
        assertThat(old == null ? null : text(old)).isEqualTo(expected);
      } else {
        String v = "v" + i;
        byte[] old = map.put(bytes(k), bytes(v));
        String expected = oracle.put(k, v);
        assertThat(old == null ? null : text(old)).isEqualTo(expected);
      }
    }
    assertThat(map.size()).isEqualTo(oracle.size());
    oracle.forEach((k, v) -> assertThat(text(map.get(bytes(k)))).isEqualTo(v));
    int seen = 0;
    for (int slot = 0; slot < map.capacity(); slot++) {
      if (map.keyAt(slot) != null) {
        seen++;
        assertThat(oracle).containsEntry(text(map.keyAt(slot)), text(map.valueAt(slot)));
      }
    }
    assertThat(seen).isEqualTo(oracle.size());
  }

  /**
   * Removing many entries at once leaves every other one where a lookup finds it, with its value and tag, in maps
   * filled to just below their growth point (long probe runs, some wrapping past the last slot).
   */
  @Test
  void removeIfKeepsEveryOtherEntryFindable() {
    for (int seed = 0; seed < 40; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      BytesMap map = seed % 2 == 0 ? new BytesMap() : BytesMap.withLongValues();
      Map<String, Long> oracle = new HashMap<>();
      while (map.size() + 1 < map.capacity() * 3 / 4 || map.size() < 1_000) {
        String k = "k" + random.nextLong();
        long v = random.nextLong(1, 1_000);
        map.put(bytes(k), LongValues.encode(v));
        oracle.put(k, v);
        map.setTag(map.slotOf(bytes(k), 0, bytes(k).length, BytesMap.hash(bytes(k))), (int) v);
      }
      long limit = new long[] {1, 100, 500, 950, 1_000}[seed % 5];
      Map<String, Long> removed = new HashMap<>();
      long count = map.removeIf(slot -> LongValues.decode(map.valueAt(slot)) < limit,
          slot -> removed.put(text(map.keyAt(slot)), LongValues.decode(map.valueAt(slot))));

      Map<String, Long> expectedRemoved = new HashMap<>(oracle);
      expectedRemoved.values().removeIf(v -> v >= limit);
      assertThat(removed).as("seed %d", seed).isEqualTo(expectedRemoved);
      assertThat(count).isEqualTo(expectedRemoved.size());
      assertThat(map.size()).isEqualTo(oracle.size() - expectedRemoved.size());
      oracle.forEach((k, v) -> {
        byte[] key = bytes(k);
        int slot = map.slotOf(key, 0, key.length, BytesMap.hash(key));
        if (v < limit) {
          assertThat(slot).as("removed %s", k).isNegative();
        } else {
          assertThat(slot).as("kept %s", k).isNotNegative();
          assertThat(LongValues.decode(map.valueAt(slot))).isEqualTo(v);
          assertThat(map.tagAt(slot)).isEqualTo((int) (long) v);
        }
      });
    }
  }

  /** A test that throws part way leaves the entries it removed removed and every other one findable. */
  @Test
  void removeIfThatThrowsLeavesTheRestFindable() {
    BytesMap map = new BytesMap();
    Map<String, String> oracle = new HashMap<>();
    for (int i = 0; map.size() + 1 < map.capacity() * 3 / 4 || map.size() < 1_000; i++) {
      map.put(bytes("k" + i), bytes("v" + i));
      oracle.put("k" + i, "v" + i);
    }
    int[] seen = {0};
    java.util.Set<String> removed = new java.util.HashSet<>();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> map.removeIf(slot -> {
      if (++seen[0] == 700) {
        throw new IllegalStateException("test failed");
      }
      return seen[0] % 3 != 0;
    }, slot -> removed.add(text(map.keyAt(slot))))).hasMessage("test failed");

    assertThat(removed).isNotEmpty();
    assertThat(map.size()).isEqualTo(oracle.size() - removed.size());
    oracle.forEach((k, v) -> {
      byte[] value = map.get(bytes(k));
      assertThat(value == null ? null : text(value)).as(k).isEqualTo(removed.contains(k) ? null : v);
    });
  }

  @Test
  void looksUpASliceOfALargerBufferAndCopiesAreIndependent() {
    BytesMap map = new BytesMap();
    map.put(bytes("abc"), bytes("1"));
    byte[] buf = bytes("xxabcyy");
    assertThat(text(map.get(buf, 2, 3, BytesMap.hash(buf, 2, 3)))).isEqualTo("1");
    assertThat(map.get(buf, 2, 2, BytesMap.hash(buf, 2, 2))).isNull();
    BytesMap copy = map.copy();
    map.remove(bytes("abc"));
    assertThat(text(copy.get(bytes("abc")))).isEqualTo("1");
    assertThat(map.get(bytes("abc"))).isNull();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
