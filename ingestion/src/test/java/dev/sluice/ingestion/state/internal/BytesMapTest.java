package dev.sluice.ingestion.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BytesMapTest {
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
