package dev.sluice.ingestion.expr;

import static dev.sluice.ingestion.expr.ExprFixtures.SCHEMA;
import static dev.sluice.ingestion.expr.ExprFixtures.eval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.types.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How numbers become timestamps in expressions: CAST is epoch seconds (Spark); other units have their own functions. */
class EpochTimestampsTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "CAST(1704101640 AS TIMESTAMP)|2024-01-01T09:34:00Z",
      "CAST(1704101640.25 AS TIMESTAMP)|2024-01-01T09:34:00.250Z",
      "CAST(-1 AS TIMESTAMP)|1969-12-31T23:59:59Z",
      // epoch milliseconds read as seconds would be year 55970: outside 0001-9999, so null, not a wild date
      "CAST(1704101640000 AS TIMESTAMP)|NULL",
      "CAST(253402300800 AS TIMESTAMP)|NULL",
      "CAST(-62135596801 AS TIMESTAMP)|NULL",
      "CAST(253402300799 AS TIMESTAMP)|9999-12-31T23:59:59Z",
      "timestamp_seconds(1704101640)|2024-01-01T09:34:00Z",
      "timestamp_seconds(1704101640.5)|2024-01-01T09:34:00.500Z",
      "timestamp_millis(1704101640123)|2024-01-01T09:34:00.123Z",
      "timestamp_micros(1704101640123456)|2024-01-01T09:34:00.123456Z",
      "timestamp_millis(-1)|1969-12-31T23:59:59.999Z",
      "timestamp_millis(1704101640000000)|NULL",
      "timestamp_millis(n)|NULL",
      "unix_seconds(ts)|1705314030",
      "unix_millis(ts)|1705314030123",
      "unix_micros(ts)|1705314030123456",
      "unix_millis(timestamp_millis(1704101640123))|1704101640123",
  })
  void numbersToTimestampsAndBack(String sql, String expected) {
    Object value = eval(sql);
    assertThat(value == null ? null : value.toString()).isEqualTo(expected);
  }

  @Test
  void aCastOfANumberToATimestampMayBeNull() {
    assertThat(Expressions.bind("CAST(total AS TIMESTAMP)", SCHEMA).nullable()).isTrue();
    assertThat(Expressions.bind("timestamp_millis(total)", SCHEMA).type()).isEqualTo(PrimitiveType.TIMESTAMP);
    assertThat(Expressions.bind("unix_millis(ts)", SCHEMA).type()).isEqualTo(PrimitiveType.LONG);
  }

  @Test
  void millisAndMicrosMustBeIntegral() {
    assertThatThrownBy(() -> Expressions.bind("timestamp_millis(price)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageStartingWith("Function `timestamp_millis` needs an integral number of millis since 1970-01-01 UTC"
            + " but got double");
    assertThatThrownBy(() -> Expressions.bind("timestamp_seconds(status)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageStartingWith("Function `timestamp_seconds` needs a number of seconds since 1970-01-01 UTC but got"
            + " string");
    assertThatThrownBy(() -> Expressions.bind("unix_millis(amount)", SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageStartingWith("Function `unix_millis` needs a timestamp but got integer");
  }
}
