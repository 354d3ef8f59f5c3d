package dev.sluice.table.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowOrderTest {

  @Test
  void sortsNullsFirstThenByNaturalOrder() {
    List<List<Object>> rows = List.of(List.of(2L, "b"), Arrays.asList(null, "z"), List.of(1L, "c"), List.of(1L, "a"));

    assertThat(KernelReader.sorted(rows))
        .containsExactly(Arrays.asList(null, "z"), List.of(1L, "a"), List.of(1L, "c"), List.of(2L, "b"));
  }

  @Test
  void ordersBinaryByUnsignedContent() {
    List<Object> high = List.of(new byte[] {(byte) 0xff});
    List<Object> low = List.of(new byte[] {0x01});
    List<Object> shorter = List.of(new byte[] {0x01, 0x00});

    assertThat(KernelReader.sorted(List.of(high, shorter, low))).containsExactly(low, shorter, high);
  }

  @Test
  void ordersMapsWhateverTheirInsertionOrder() {
    Map<Object, Object> ab = new LinkedHashMap<>();
    ab.put("a", 1);
    ab.put("b", 2);
    Map<Object, Object> ba = new LinkedHashMap<>();
    ba.put("b", 2);
    ba.put("a", 0);

    assertThat(KernelReader.sorted(List.of(List.of(ab), List.of(ba)))).containsExactly(List.of(ba), List.of(ab));
    assertThat(KernelReader.sorted(List.of(List.of(ba), List.of(ab)))).containsExactly(List.of(ba), List.of(ab));
  }

  @Test
  void givesTheSameOrderForEveryInputOrder() {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      rows.add(Arrays.asList(i % 3, i % 2 == 0 ? null : Instant.ofEpochSecond(i), List.of((long) i, "x")));
    }
    List<List<Object>> shuffled = new ArrayList<>(rows);
    Collections.shuffle(shuffled, new Random(7));

    assertThat(KernelReader.sorted(shuffled)).isEqualTo(KernelReader.sorted(rows));
  }

  @Test
  void ordersDifferentClassesByClassName() {
    // Integer vs Long in one column means two readers disagree on a type; the order must still be total.
    assertThat(KernelReader.sorted(List.of(List.of(1L), List.of(2)))).containsExactly(List.of(2), List.of(1L));
  }

  @Test
  void refusesValuesOutsideSluicesMapping() {
    List<List<Object>> rows = List.of(List.of(new Object()), List.of(new Object()));

    assertThatThrownBy(() -> KernelReader.sorted(rows))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot order values of java.lang.Object");
  }
}
