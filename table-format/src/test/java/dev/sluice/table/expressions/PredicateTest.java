package dev.sluice.table.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PredicateTest {

  @Test
  void rendersSqlLikeText() {
    Predicate p = Predicate.and(Predicate.eq("status", "open"), Predicate.gt("amount", 10));
    assertThat(p).hasToString("status = 'open' AND amount > 10");
  }

  @Test
  void rendersEveryNodeKind() {
    assertThat(Predicate.ne("a", 1L)).hasToString("a <> 1");
    assertThat(Predicate.le("a", new BigDecimal("1.50"))).hasToString("a <= 1.50");
    assertThat(Predicate.lt("d", LocalDate.of(2021, 9, 8))).hasToString("d < DATE '2021-09-08'");
    assertThat(Predicate.ge("t", Instant.parse("2021-09-08T11:11:11Z")))
        .hasToString("t >= TIMESTAMP '2021-09-08T11:11:11Z'");
    assertThat(Predicate.eq("flag", true)).hasToString("flag = TRUE");
    assertThat(Predicate.eq("b", new byte[] {0x0a, (byte) 0xff})).hasToString("b = X'0AFF'");
    assertThat(Predicate.isNull("a")).hasToString("a IS NULL");
    assertThat(Predicate.isNotNull("a")).hasToString("a IS NOT NULL");
    assertThat(Predicate.in("day", List.of("x", "y"))).hasToString("day IN ('x', 'y')");
    assertThat(Predicate.not(Predicate.eq("a", 1))).hasToString("NOT (a = 1)");
    assertThat(Predicate.compareColumns("a", CompareOp.LT, "b")).hasToString("a < b");
    assertThat(Predicate.alwaysTrue()).hasToString("TRUE");
    assertThat(Predicate.alwaysFalse()).hasToString("FALSE");
  }

  @Test
  void quotesStringsAndOddColumnNames() {
    assertThat(Predicate.eq("name", "O'Brien")).hasToString("name = 'O''Brien'");
    assertThat(Predicate.eq("my col", 1)).hasToString("`my col` = 1");
    assertThat(Predicate.eq("a`b", 1)).hasToString("`a``b` = 1");
  }

  @Test
  void parenthesisesMixedAndOr() {
    Predicate a = Predicate.eq("a", 1);
    Predicate b = Predicate.eq("b", 2);
    Predicate c = Predicate.eq("c", 3);
    assertThat(Predicate.and(Predicate.or(a, b), c)).hasToString("(a = 1 OR b = 2) AND c = 3");
    assertThat(Predicate.or(Predicate.and(a, b), c)).hasToString("(a = 1 AND b = 2) OR c = 3");
    assertThat(Predicate.and(a, b, c)).hasToString("a = 1 AND b = 2 AND c = 3");
    assertThat(Predicate.or(a, b, c)).hasToString("a = 1 OR b = 2 OR c = 3");
  }

  @Test
  void emptyAndIsTrueAndEmptyOrIsFalse() {
    assertThat(Predicate.and()).isEqualTo(Predicate.alwaysTrue());
    assertThat(Predicate.or()).isEqualTo(Predicate.alwaysFalse());
    Predicate single = Predicate.eq("a", 1);
    assertThat(Predicate.and(single)).isSameAs(single);
  }

  @Test
  void listsReferencedColumnsInOrder() {
    Predicate p = Predicate.or(
        Predicate.and(Predicate.eq("b", 1), Predicate.isNull("a")),
        Predicate.not(Predicate.in("b", List.of(1))),
        Predicate.compareColumns("c", CompareOp.EQ, "a"));
    assertThat(p.referencedColumns()).containsExactly("b", "a", "c");
    assertThat(Predicate.alwaysTrue().referencedColumns()).isEmpty();
  }

  @Test
  void checksPartitionOnlyIgnoringCase() {
    Predicate p = Predicate.and(Predicate.eq("Day", "2021-01-01"), Predicate.gt("amount", 5));
    assertThat(p.referencesOnly(Set.of("day"))).isFalse();
    assertThat(p.columnsOutside(Set.of("day"))).containsExactly("amount");
    assertThat(p.referencesOnly(Set.of("DAY", "AMOUNT"))).isTrue();
    assertThat(Predicate.alwaysTrue().referencesOnly(Set.of())).isTrue();
  }

  @Test
  void refusesNullLiteralsPointingToIsNull() {
    assertThatThrownBy(() -> Predicate.eq("status", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'status' is null")
        .hasMessageContaining("Predicate.isNull(\"status\")");
    assertThatThrownBy(() -> Predicate.in("status", java.util.Arrays.asList("a", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'status' is null");
  }

  @Test
  void refusesUnsupportedLiteralTypes() {
    assertThatThrownBy(() -> Predicate.eq("t", java.time.LocalDateTime.of(2021, 1, 1, 0, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.time.LocalDateTime")
        .hasMessageContaining("column 't'")
        .hasMessageContaining("Instant");
  }

  @Test
  void refusesEmptyColumnNames() {
    assertThatThrownBy(() -> Predicate.isNull(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A predicate needs a column name, but got ''");
  }

  @Test
  void copiesBinaryLiterals() {
    byte[] bytes = {1, 2};
    Predicate.Comparison c = (Predicate.Comparison) Predicate.eq("b", bytes);
    bytes[0] = 9;
    assertThat((byte[]) c.literal()).containsExactly(1, 2);
  }

  @Test
  void negatesAndFlipsOperators() {
    for (CompareOp op : CompareOp.values()) {
      for (int cmp = -1; cmp <= 1; cmp++) {
        assertThat(op.negate().test(cmp)).isEqualTo(!op.test(cmp));
        assertThat(op.flip().test(-cmp)).isEqualTo(op.test(cmp));
      }
    }
  }
}
