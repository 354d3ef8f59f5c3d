package dev.sluice.ingestion.expr;

import static dev.sluice.ingestion.expr.ExprFixtures.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.expressions.CompareOp;
import dev.sluice.table.expressions.Predicate;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TablePredicateMappingTest {

  private static Predicate map(String sql) {
    return Expressions.toTablePredicate(sql, SCHEMA).orElseThrow();
  }

  @Test
  void comparisonsWithLiteralsOnEitherSide() {
    assertThat(map("amount > 10")).isEqualTo(Predicate.gt("amount", 10));
    assertThat(map("10 < AMOUNT")).isEqualTo(Predicate.gt("amount", 10));
    assertThat(map("status <> 'test'")).isEqualTo(Predicate.ne("status", "test"));
    assertThat(map("price >= -1.5")).isEqualTo(Predicate.ge("price", -1.5));
    assertThat(map("total = 10000000000")).isEqualTo(Predicate.eq("total", 10_000_000_000L));
    assertThat(map("day = DATE '2024-01-02'")).isEqualTo(Predicate.eq("day", LocalDate.of(2024, 1, 2)));
    assertThat(map("ts < TIMESTAMP '2024-01-02 03:04:05'"))
        .isEqualTo(Predicate.lt("ts", Instant.parse("2024-01-02T03:04:05Z")));
    assertThat(map("amount = total")).isEqualTo(Predicate.compareColumns("amount", CompareOp.EQ, "total"));
  }

  @Test
  void logicalShapes() {
    assertThat(map("amount > 10 AND status <> 'test'"))
        .isEqualTo(Predicate.and(Predicate.gt("amount", 10), Predicate.ne("status", "test")));
    assertThat(map("(amount > 10 OR n IS NULL) AND NOT flag = TRUE"))
        .isEqualTo(Predicate.and(Predicate.or(Predicate.gt("amount", 10), Predicate.isNull("n")),
            Predicate.not(Predicate.eq("flag", true))));
    assertThat(map("status IN ('a', 'b')")).isEqualTo(Predicate.in("status", List.of("a", "b")));
    assertThat(map("status NOT IN ('a')")).isEqualTo(Predicate.not(Predicate.in("status", List.of("a"))));
    assertThat(map("amount BETWEEN 1 AND 5"))
        .isEqualTo(Predicate.and(Predicate.ge("amount", 1), Predicate.le("amount", 5)));
    assertThat(map("n IS NOT NULL")).isEqualTo(Predicate.isNotNull("n"));
    assertThat(map("`my col` = 'x'")).isEqualTo(Predicate.eq("my col", "x"));
  }

  @Test
  void theMappedPredicateSelectsTheSameRows() {
    String sql = "amount BETWEEN 40 AND 50 AND status IN ('open', 'x')";
    Predicate p = map(sql);
    assertThat(p.bind(SCHEMA).test(ExprFixtures.ROW)).isTrue();
    assertThat(Expressions.bindPredicate(sql, SCHEMA).test(ExprFixtures.ROW, ExprFixtures.CONTEXT)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "amount + 1 > 10", "lower(status) = 'a'", "status LIKE 'a%'", "amount > 10 AND lower(status) = 'a'",
      "amount = NULL", "status IN ('a', NULL)", "CASE WHEN flag THEN TRUE ELSE FALSE END", "status = 1",
      "flag", "amount IN (1, amount)",
  })
  void otherShapesGiveEmpty(String sql) {
    assertThat(Expressions.toTablePredicate(sql, SCHEMA)).isEmpty();
  }

  @Test
  void invalidExpressionsStillFail() {
    assertThatThrownBy(() -> Expressions.toTablePredicate("amout > 1", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Unknown column `amout`");
    assertThatThrownBy(() -> Expressions.toTablePredicate("amount + 1", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Expected a boolean condition");
  }
}
