package dev.sluice.ingestion.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Interval literals with timestamp arithmetic, and struct field access ({@code window.start}). */
class IntervalsAndStructsTest {
  private static final StructType WINDOW = StructType.of(StructField.of("start", PrimitiveType.TIMESTAMP),
      StructField.of("end", PrimitiveType.TIMESTAMP));
  private static final StructType SCHEMA = StructType.empty().add("event_time", PrimitiveType.TIMESTAMP)
      .add("window", WINDOW).add("imp.ad", PrimitiveType.LONG).add("n", PrimitiveType.INTEGER)
      .add("day", PrimitiveType.DATE);
  private static final Instant T = Instant.parse("2024-01-15T10:00:00Z");
  private static final Row ROW = Row.of(T, Row.of(T, T.plusSeconds(600)), 7L, 3, java.time.LocalDate.of(2024, 1, 15));

  private static Object eval(String sql) {
    return Expressions.bind(sql, SCHEMA).eval(ROW, new EvalContext(T));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "event_time + INTERVAL '1' MINUTE | 2024-01-15T10:01:00Z",
      "event_time + INTERVAL 10 MINUTES | 2024-01-15T10:10:00Z",
      "event_time - INTERVAL 1 HOUR | 2024-01-15T09:00:00Z",
      "INTERVAL '1 hour 30 minutes' + event_time | 2024-01-15T11:30:00Z",
      "event_time + INTERVAL '250' MILLISECOND | 2024-01-15T10:00:00.250Z",
      "event_time + interval 2 days | 2024-01-17T10:00:00Z",
      "day + INTERVAL 1 HOUR | 2024-01-15T01:00:00Z"})
  void timestampPlusOrMinusAnInterval(String sql, String expected) {
    assertThat(eval(sql)).isEqualTo(Instant.parse(expected));
    assertThat(Expressions.bind(sql, SCHEMA).type()).isEqualTo(PrimitiveType.TIMESTAMP);
  }

  @Test
  void aTimeRangeConditionWithIntervals() {
    assertThat(eval("window.end BETWEEN event_time AND event_time + INTERVAL 10 MINUTES")).isEqualTo(true);
    assertThat(eval("window.end < event_time + INTERVAL 9 MINUTES")).isEqualTo(false);
  }

  @Test
  void structFieldsAndDottedColumnNames() {
    assertThat(eval("window.start")).isEqualTo(T);
    assertThat(eval("`window`.`end`")).isEqualTo(T.plusSeconds(600));
    assertThat(eval("WINDOW.END")).isEqualTo(T.plusSeconds(600));
    assertThat(Expressions.bind("window.start", SCHEMA).type()).isEqualTo(PrimitiveType.TIMESTAMP);
    assertThat(eval("imp.ad + 1")).isEqualTo(8L);
    assertThat(Expressions.bind("window.start", SCHEMA).eval(Row.of(T, null, 1L, 1, null), new EvalContext(T))).isNull();
    assertThat(eval("'window.start'")).isEqualTo("window.start");
  }

  @Test
  void badIntervalsAndFieldsSayWhatToWrite() {
    assertThatThrownBy(() -> eval("INTERVAL 1 HOUR")).isInstanceOf(ExpressionException.class)
        .hasMessageContaining("can only be added to or subtracted from a timestamp");
    assertThatThrownBy(() -> eval("event_time + INTERVAL 1 MONTH")).isInstanceOf(ExpressionException.class)
        .hasMessageContaining("months and years have no fixed length");
    assertThatThrownBy(() -> eval("n + INTERVAL 1 HOUR")).isInstanceOf(ExpressionException.class)
        .hasMessageContaining("`n` is integer");
    assertThatThrownBy(() -> eval("window.middle")).isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Struct `window` has no field `middle`; its fields are start, end");
    assertThatThrownBy(() -> eval("n.x")).isInstanceOf(ExpressionException.class)
        .hasMessageContaining("`n` is integer, not a struct");
    assertThatThrownBy(() -> eval("nope.x")).isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Unknown column `nope.x`");
  }
}
