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

class ExpressionsFunctionsTest {

  @ParameterizedTest
  @CsvSource(quoteCharacter = '~', delimiter = '|', nullValues = "NULL", value = {
      "CAST('12' AS INT)|12", "CAST(' 12 ' AS integer)|12", "CAST('1.9' AS INT)|1", "CAST('x' AS INT)|NULL",
      "CAST('3000000000' AS INT)|NULL", "CAST('3000000000' AS BIGINT)|3000000000", "CAST('7' AS long)|7",
      "CAST('300' AS TINYINT)|NULL", "CAST('12' AS SMALLINT)|12", "CAST('1.5' AS DOUBLE)|1.5", "CAST('1.5' AS FLOAT)|1.5",
      "CAST('NaN' AS DOUBLE)|NaN", "CAST('abc' AS DOUBLE)|NULL", "CAST('true' AS BOOLEAN)|true", "CAST('no' AS BOOLEAN)|false",
      "CAST('maybe' AS BOOLEAN)|NULL", "CAST('2024-02-03' AS DATE)|2024-02-03", "CAST('2024-02-30' AS DATE)|NULL",
      "CAST('2024-02-03 04:05:06' AS TIMESTAMP)|2024-02-03T04:05:06Z", "CAST('garbage' AS TIMESTAMP)|NULL",
      "CAST('12.345' AS DECIMAL(5,2))|12.35", "CAST('12345.6' AS DECIMAL(5,2))|NULL", "CAST(amount AS STRING)|42",
      "CAST(price AS STRING)|2.5", "CAST(flag AS STRING)|true", "CAST(day AS STRING)|2024-01-15",
      "CAST(ts AS STRING)|2024-01-15 10:20:30.123456", "CAST(cost AS STRING)|12.34", "CAST(ts AS DATE)|2024-01-15",
      "CAST(day AS TIMESTAMP)|2024-01-15T00:00:00Z", "CAST(price AS INT)|2", "CAST(total AS INT)|-1589934592",
      "CAST(amount AS DECIMAL(4,1))|42.0", "CAST(flag AS INT)|1", "CAST(amount AS BOOLEAN)|true", "CAST(n AS STRING)|NULL",
  })
  void casts(String sql, String expected) {
    Object value = eval(sql);
    assertThat(value == null ? null : value instanceof BigDecimal d ? d.toPlainString() : value.toString()).isEqualTo(expected);
  }

  @Test
  void castResultTypes() {
    assertThat(Expressions.bind("CAST(status AS DECIMAL(12,3))", SCHEMA).type()).isEqualTo(DecimalType.of(12, 3));
    assertThat(Expressions.bind("CAST(status AS bigint)", SCHEMA).type()).isEqualTo(PrimitiveType.LONG);
    assertThat(Expressions.bind("CAST(status AS tinyint)", SCHEMA).type()).isEqualTo(PrimitiveType.BYTE);
    assertThat(eval("CAST('5' AS SMALLINT)")).isEqualTo((short) 5);
  }

  @ParameterizedTest
  @CsvSource(quoteCharacter = '~', delimiter = '|', nullValues = "NULL", value = {
      "coalesce(n, amount)|42", "coalesce(n, NULL)|NULL", "coalesce(NULL, 'x')|x", "nullif(amount, 42)|NULL",
      "nullif(amount, 1)|42", "lower('AbC')|abc", "upper(status)|OPEN", "trim('  a b  ')|a b", "ltrim('  a ')|'a '",
      "rtrim('  a ')|'  a'", "trim(BOTH 'x' FROM 'xxaxx')|a", "trim(LEADING 'x' FROM 'xxaxx')|axx",
      "trim(TRAILING 'x' FROM 'xxaxx')|xxa", "length(status)|4", "length('')|0", "length(CAST(n AS STRING))|NULL",
      "substring('Spark SQL', 5)|k SQL", "substring('Spark SQL', -3)|SQL", "substring('Spark SQL', 5, 1)|k",
      "substr('Spark SQL', 0, 2)|Sp", "substr('Spark SQL', 20)|''", "substr('Spark SQL', 2, -1)|''",
      "substring('Spark SQL', -30, 28)|Spark S", "concat(status, '-', amount)|open-42", "concat(status, n)|NULL",
      "abs(-5)|5", "abs(-2.5)|2.5", "abs(cost - 20)|7.66", "round(2.5)|3.0", "round(-2.5)|-3.0", "round(1.2345, 2)|1.23",
      "round(cost, 1)|12.3", "round(amount, -1)|40", "floor(2.7)|2", "floor(-2.1)|-3", "ceil(2.1)|3", "ceiling(cost)|13",
      "floor(amount)|42", "round(n)|NULL",
  })
  void functions(String sql, String expected) {
    Object value = eval(sql);
    String text = value == null ? null : value instanceof BigDecimal d ? d.toPlainString() : value.toString();
    assertThat(text).isEqualTo(expected == null ? null : expected.replace("'", ""));
  }

  @Test
  void numericFunctionTypes() {
    assertThat(Expressions.bind("floor(price)", SCHEMA).type()).isEqualTo(PrimitiveType.LONG);
    assertThat(Expressions.bind("ceil(cost)", SCHEMA).type()).isEqualTo(DecimalType.of(9, 0));
    assertThat(Expressions.bind("round(price, 1)", SCHEMA).type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(Expressions.bind("abs(amount)", SCHEMA).type()).isEqualTo(PrimitiveType.INTEGER);
    assertThat(Expressions.bind("length(status)", SCHEMA).type()).isEqualTo(PrimitiveType.INTEGER);
    assertThat(Expressions.bind("coalesce(amount, price)", SCHEMA).type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(Expressions.bind("coalesce(amount, 0)", SCHEMA).nullable()).isFalse();
  }

  @Test
  void dateTimeFunctions() {
    assertThat(eval("to_timestamp('2024-03-04 05:06:07')")).isEqualTo(Instant.parse("2024-03-04T05:06:07Z"));
    assertThat(eval("to_timestamp('2024-03-04T05:06:07.5Z')")).isEqualTo(Instant.parse("2024-03-04T05:06:07.500Z"));
    assertThat(eval("to_timestamp('2024-03-04T05:06:07+01:00')")).isEqualTo(Instant.parse("2024-03-04T04:06:07Z"));
    assertThat(eval("to_timestamp('04/03/2024 05:06', 'dd/MM/yyyy HH:mm')")).isEqualTo(Instant.parse("2024-03-04T05:06:00Z"));
    assertThat(eval("to_timestamp('04/03/2024', 'dd/MM/yyyy')")).isEqualTo(Instant.parse("2024-03-04T00:00:00Z"));
    assertThat(eval("to_timestamp('nope')")).isNull();
    assertThat(eval("to_timestamp('nope', 'yyyy')")).isNull();
    assertThat(eval("to_timestamp(day)")).isEqualTo(Instant.parse("2024-01-15T00:00:00Z"));
    assertThat(eval("to_date('2024-03-04')")).isEqualTo(LocalDate.of(2024, 3, 4));
    assertThat(eval("to_date('2024-03-04 23:59:59')")).isEqualTo(LocalDate.of(2024, 3, 4));
    assertThat(eval("to_date('04.03.2024', 'dd.MM.yyyy')")).isEqualTo(LocalDate.of(2024, 3, 4));
    assertThat(eval("to_date(ts)")).isEqualTo(LocalDate.of(2024, 1, 15));
    assertThat(eval("to_date('x')")).isNull();
    assertThat(eval("date_trunc('minute', ts)")).isEqualTo(Instant.parse("2024-01-15T10:20:00Z"));
    assertThat(eval("date_trunc('second', ts)")).isEqualTo(Instant.parse("2024-01-15T10:20:30Z"));
    assertThat(eval("date_trunc('hour', ts)")).isEqualTo(Instant.parse("2024-01-15T10:00:00Z"));
    assertThat(eval("date_trunc('DAY', ts)")).isEqualTo(Instant.parse("2024-01-15T00:00:00Z"));
    assertThat(eval("date_trunc('week', TIMESTAMP '2024-01-17 10:00:00')")).isEqualTo(Instant.parse("2024-01-15T00:00:00Z"));
    assertThat(eval("date_trunc('month', ts)")).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
    assertThat(eval("date_trunc('year', ts)")).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
    assertThat(eval("year(ts)")).isEqualTo(2024);
    assertThat(eval("month(ts)")).isEqualTo(1);
    assertThat(eval("day(ts)")).isEqualTo(15);
    assertThat(eval("dayofmonth(day)")).isEqualTo(15);
    assertThat(eval("hour(ts)")).isEqualTo(10);
    assertThat(eval("minute(ts)")).isEqualTo(20);
    assertThat(eval("second(ts)")).isEqualTo(30);
    assertThat(eval("year(to_date(CAST(n AS STRING)))")).isNull();
  }

  @Test
  void currentTimestampIsTheBatchTime() {
    assertThat(eval("current_timestamp()")).isEqualTo(ExprFixtures.BATCH_TIME);
    assertThat(eval("current_timestamp")).isEqualTo(ExprFixtures.BATCH_TIME);
    assertThat(eval("now()")).isEqualTo(ExprFixtures.BATCH_TIME);
    assertThat(eval("current_date()")).isEqualTo(LocalDate.of(2024, 5, 6));
    BoundExpression e = Expressions.bind("ts < current_timestamp()", SCHEMA);
    assertThat(e.eval(ExprFixtures.ROW, new EvalContext(Instant.parse("2024-01-01T00:00:00Z")))).isEqualTo(false);
    assertThat(e.eval(ExprFixtures.ROW, ExprFixtures.CONTEXT)).isEqualTo(true);
  }

  @ParameterizedTest
  @CsvSource(quoteCharacter = '~', delimiter = '|', nullValues = "NULL", value = {
      "$.s|t", "$.a.b[0]|10", "$.a.b[1].c|x", "$.a.b[1]|{\"c\":\"x\"}", "$.a|{\"b\":[10,{\"c\":\"x\"}]}",
      "$[''s'']|t", "$.z|NULL", "$.missing|NULL", "$.a.b[5]|NULL", "$.s.t|NULL",
  })
  void getJsonObject(String path, String expected) {
    assertThat(eval("get_json_object(payload, '" + path + "')")).isEqualTo(expected);
  }

  @Test
  void getJsonObjectOnInvalidJsonOrNullIsNull() {
    assertThat(eval("get_json_object('{not json', '$.a')")).isNull();
    assertThat(eval("get_json_object(CAST(n AS STRING), '$.a')")).isNull();
    assertThat(eval("get_json_object(payload, status)")).isNull();
  }
}
