package dev.sluice.table.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** IN lists long enough to be hashed match exactly what the column's order calls equal. */
class LargeInListTest {
  private static final StructType SCHEMA = StructType.empty()
      .add("id", PrimitiveType.LONG)
      .add("amount", DecimalType.of(10, 2))
      .add("s", PrimitiveType.STRING)
      .add("d", PrimitiveType.DOUBLE);

  private static List<Object> many(java.util.function.IntFunction<Object> value) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      out.add(value.apply(i));
    }
    return out;
  }

  private static boolean test(Predicate p, Object... row) {
    return p.bind(SCHEMA).test(Row.of(row));
  }

  @Test
  void decimalsMatchWhateverTheirScale() {
    Predicate in = Predicate.in("amount", many(i -> new BigDecimal(i + ".5")));
    assertThat(test(in, 1L, new BigDecimal("7.50"), "x", 0.0)).isTrue();
    assertThat(test(in, 1L, new BigDecimal("7.25"), "x", 0.0)).isFalse();
  }

  @Test
  void integersMatchAsLongs() {
    Predicate in = Predicate.in("id", many(i -> i * 3));
    assertThat(test(in, 42L, BigDecimal.ONE, "x", 0.0)).isTrue();
    assertThat(test(in, 43L, BigDecimal.ONE, "x", 0.0)).isFalse();
  }

  @Test
  void stringsMatchExactlyIncludingSupplementaryCharacters() {
    Predicate in = Predicate.in("s", many(i -> "k" + i + "\uD83D\uDE00"));
    assertThat(test(in, 1L, BigDecimal.ONE, "k9\uD83D\uDE00", 0.0)).isTrue();
    assertThat(test(in, 1L, BigDecimal.ONE, "k9", 0.0)).isFalse();
    assertThat(test(Predicate.not(in), 1L, BigDecimal.ONE, "k9", 0.0)).isTrue();
  }

  @Test
  void doublesFollowTheOrderNotEquals() {
    Predicate in = Predicate.in("d", many(i -> (double) i));
    assertThat(test(in, 1L, BigDecimal.ONE, "x", -0.0)).isTrue();
    assertThat(test(in, 1L, BigDecimal.ONE, "x", 0.5)).isFalse();
  }
}
