package dev.sluice.ingestion.expr;

import static dev.sluice.ingestion.expr.ExprFixtures.SCHEMA;
import static dev.sluice.ingestion.expr.ExprFixtures.eval;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionsOperatorsTest {

  @Test
  void columnsResolveIgnoringCaseAndInBackquotes() {
    assertThat(eval("AMOUNT")).isEqualTo(42);
    assertThat(eval("`my col`")).isEqualTo("spaced");
    BoundExpression e = Expressions.bind("Amount + `MY COL`", SCHEMA);
    assertThat(e.referencedColumns()).containsExactly("amount", "my col");
    assertThat(e.sql()).isEqualTo("Amount + `MY COL`");
  }

  @Test
  void literalsHaveSparkLikeTypes() {
    assertThat(Expressions.bind("1", SCHEMA).type()).isEqualTo(PrimitiveType.INTEGER);
    assertThat(Expressions.bind("10000000000", SCHEMA).type()).isEqualTo(PrimitiveType.LONG);
    assertThat(Expressions.bind("1.5", SCHEMA).type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(eval("'it''s'")).isEqualTo("it's");
    assertThat(eval("TRUE")).isEqualTo(true);
    assertThat(eval("FALSE")).isEqualTo(false);
    assertThat(eval("NULL")).isNull();
    assertThat(eval("DATE '2024-01-01'")).isEqualTo(LocalDate.of(2024, 1, 1));
    assertThat(eval("TIMESTAMP '2024-01-01 10:00:00'")).isEqualTo(Instant.parse("2024-01-01T10:00:00Z"));
    assertThat(eval("TIMESTAMP '2024-01-01T10:00:00+02:00'")).isEqualTo(Instant.parse("2024-01-01T08:00:00Z"));
    assertThat(eval("-5")).isEqualTo(-5);
    assertThat(eval("-amount")).isEqualTo(-42);
  }

  @ParameterizedTest
  @CsvSource(quoteCharacter = '~', delimiter = '|', value = {
      "amount + 1|43|integer",
      "amount - 50|-8|integer",
      "amount * 2|84|integer",
      "amount % 5|2|integer",
      "amount + total|7000000042|long",
      "amount + price|44.5|double",
      "amount / 8|5.25|double",
      "total / 2|3.5E9|double",
      "price * 2|5.0|double",
      "ratio + amount|43.5|float",
      "cost + 1|13.34|decimal(13,2)",
      "cost * 2|24.68|decimal(21,2)",
      "cost - price|9.84|double",
      "'3' + 1|4.0|double",
  })
  void arithmeticWidens(String sql, String expected, String type) {
    BoundExpression e = Expressions.bind(sql, SCHEMA);
    assertThat(e.type().typeName()).isEqualTo(type);
    Object value = e.eval(ExprFixtures.ROW, ExprFixtures.CONTEXT);
    assertThat(String.valueOf(value instanceof BigDecimal d ? d.toPlainString() : value)).isEqualTo(expected);
  }

  @Test
  void arithmeticNullsAndDivisionByZero() {
    assertThat(eval("amount / 0")).isNull();
    assertThat(eval("amount % 0")).isNull();
    assertThat(eval("cost / 0")).isNull();
    assertThat(eval("price / 0.0")).isNull();
    assertThat(eval("n + 1")).isNull();
    assertThat(eval("1 - n")).isNull();
    assertThat(eval("NULL * 2")).isNull();
    assertThat(eval("'a' + 1")).isNull();
    // Spark: decimal(10,2) / decimal(10,0) is decimal(21,13).
    assertThat(Expressions.bind("cost / 4", SCHEMA).type()).isEqualTo(DecimalType.of(21, 13));
    assertThat(eval("cost / 4")).isEqualTo(new BigDecimal("3.0850000000000"));
  }

  @ParameterizedTest
  @CsvSource(quoteCharacter = '~', delimiter = '|', value = {
      "amount = 42|true", "amount <> 42|false", "amount != 41|true", "amount < 43|true", "amount <= 42|true",
      "amount > 42|false", "amount >= 42|true", "amount = 42.0|true", "total > amount|true", "price < 3|true",
      "cost = 12.34|true", "cost > 12|true", "status = 'open'|true", "status < 'p'|true", "status > 'open'|false",
      "day = DATE '2024-01-15'|true", "day < DATE '2024-01-16'|true", "ts > TIMESTAMP '2024-01-15 10:20:30'|true",
      "day < ts|true", "day = '2024-01-15'|true", "ts < '2024-01-16'|true", "flag = TRUE|true", "flag = 'true'|true",
      "amount = '42'|true", "amount > '41.5'|true", "ratio = 1.5|true", "n = 1|", "amount = NULL|", "NULL = NULL|",
  })
  void comparisons(String sql, Boolean expected) {
    assertThat(eval(sql)).isEqualTo(expected);
  }

  @Test
  void threeValuedLogicTables() {
    // n IS NULL stands for UNKNOWN; b is the other operand, TRUE/FALSE/NULL.
    Boolean[] values = {true, false, null};
    Boolean[][] and = {{true, false, null}, {false, false, false}, {null, false, null}};
    Boolean[][] or = {{true, true, true}, {true, false, null}, {true, null, null}};
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        var row = ExprFixtures.nb(values[i] == null ? null : values[i] ? 1 : 0, values[j]);
        assertThat(eval("(n = 1) AND b", row)).as("%s AND %s", values[i], values[j]).isEqualTo(and[i][j]);
        assertThat(eval("(n = 1) OR b", row)).as("%s OR %s", values[i], values[j]).isEqualTo(or[i][j]);
      }
      var row = ExprFixtures.nb(null, values[i]);
      assertThat(eval("NOT b", row)).isEqualTo(values[i] == null ? null : !values[i]);
    }
  }

  @Test
  void testIsTrueOnlyForTrue() {
    BoundExpression p = Expressions.bindPredicate("n > 0", SCHEMA);
    assertThat(p.test(ExprFixtures.nb(1, null), ExprFixtures.CONTEXT)).isTrue();
    assertThat(p.test(ExprFixtures.nb(0, null), ExprFixtures.CONTEXT)).isFalse();
    assertThat(p.test(ExprFixtures.nb(null, null), ExprFixtures.CONTEXT)).isFalse();
    assertThat(p.nullable()).isTrue();
  }

  @Test
  void isNullInBetween() {
    assertThat(eval("n IS NULL")).isEqualTo(true);
    assertThat(eval("n IS NOT NULL")).isEqualTo(false);
    assertThat(eval("amount IS NULL")).isEqualTo(false);
    assertThat(Expressions.bind("n IS NULL", SCHEMA).nullable()).isFalse();
    assertThat(eval("amount IN (1, 42)")).isEqualTo(true);
    assertThat(eval("amount IN (1, 2)")).isEqualTo(false);
    assertThat(eval("amount IN (1, NULL)")).isNull();
    assertThat(eval("amount IN (42, NULL)")).isEqualTo(true);
    assertThat(eval("amount NOT IN (1, 2)")).isEqualTo(true);
    assertThat(eval("amount NOT IN (1, NULL)")).isNull();
    assertThat(eval("n IN (1, 2)")).isNull();
    assertThat(eval("status IN ('open', 'closed')")).isEqualTo(true);
    assertThat(eval("amount IN (42.0, 1)")).isEqualTo(true);
    assertThat(eval("amount BETWEEN 40 AND 42")).isEqualTo(true);
    assertThat(eval("amount BETWEEN 43 AND 50")).isEqualTo(false);
    assertThat(eval("amount NOT BETWEEN 43 AND 50")).isEqualTo(true);
    assertThat(eval("n BETWEEN 1 AND 2")).isNull();
    assertThat(eval("day BETWEEN DATE '2024-01-01' AND DATE '2024-01-31'")).isEqualTo(true);
  }

  @Test
  void like() {
    assertThat(eval("status LIKE 'op%'")).isEqualTo(true);
    assertThat(eval("status LIKE 'o_en'")).isEqualTo(true);
    assertThat(eval("status LIKE 'o_n'")).isEqualTo(false);
    assertThat(eval("status NOT LIKE '%x%'")).isEqualTo(true);
    assertThat(eval("'50%' LIKE '50!%' ESCAPE '!'")).isEqualTo(true);
    assertThat(eval("'50x' LIKE '50!%' ESCAPE '!'")).isEqualTo(false);
    assertThat(eval("'a.b' LIKE 'a.b'")).isEqualTo(true);
    assertThat(eval("'axb' LIKE 'a.b'")).isEqualTo(false);
    assertThat(eval("'a_b' LIKE 'a\\_b'")).isEqualTo(true);
    assertThat(eval("CAST(n AS STRING) LIKE '%'")).isNull();
    assertThat(eval("status LIKE payload")).isEqualTo(false);
  }

  @Test
  void caseWhen() {
    assertThat(eval("CASE WHEN amount > 40 THEN 'big' WHEN amount > 10 THEN 'mid' ELSE 'small' END")).isEqualTo("big");
    assertThat(eval("CASE WHEN amount > 50 THEN 'big' END")).isNull();
    assertThat(eval("CASE WHEN n > 0 THEN 1 ELSE 2 END")).isEqualTo(2);
    assertThat(eval("CASE status WHEN 'closed' THEN 1 WHEN 'open' THEN 2 END")).isEqualTo(2);
    assertThat(eval("CASE n WHEN 1 THEN 'one' ELSE 'other' END")).isEqualTo("other");
    BoundExpression widened = Expressions.bind("CASE WHEN flag THEN amount ELSE price END", SCHEMA);
    assertThat(widened.type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(widened.eval(ExprFixtures.ROW, ExprFixtures.CONTEXT)).isEqualTo(42.0);
  }

  @Test
  void concatOperator() {
    assertThat(eval("status || '-' || amount")).isEqualTo("open-42");
    assertThat(eval("status || CAST(n AS STRING)")).isNull();
  }
}
