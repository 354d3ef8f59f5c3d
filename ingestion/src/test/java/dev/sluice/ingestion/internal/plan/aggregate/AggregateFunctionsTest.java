package dev.sluice.ingestion.internal.plan.aggregate;

import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.approxCountDistinct;
import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.avg;
import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.count;
import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.max;
import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.min;
import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.sum;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateFunctionsTest {
  private static StructType schema(String column, DataType type) {
    return StructType.of(StructField.of("k", PrimitiveType.STRING), StructField.of(column, type));
  }

  /** One complete-mode batch over (k, x) rows; returns the rows sorted by key. */
  private static List<Row> aggregate(DataType type, List<Object[]> rows, AggregateSpec... aggregates) {
    AggregationHarness h = AggregationHarness.of(schema("x", type), OutputMode.COMPLETE, null, null, List.of("k"),
        aggregates);
    return sorted(h.run(0, rows.stream().map(Row::of).toList()));
  }

  private static List<Row> sorted(List<Row> rows) {
    return rows.stream().sorted((a, b) -> String.valueOf(a.get(0)).compareTo(String.valueOf(b.get(0)))).toList();
  }

  private static Object[] r(Object... values) {
    return values;
  }

  @Test
  void countStarCountsRowsAndCountColumnSkipsNulls() {
    List<Row> out = aggregate(PrimitiveType.INTEGER, List.of(r("a", 1), r("a", null), r("b", null)),
        count(), count("x"));
    assertThat(out).containsExactly(Row.of("a", 2L, 1L), Row.of("b", 1L, 0L));
  }

  @Test
  void integralSumIsALongThatWrapsAsSparkWithoutAnsi() {
    AggregationHarness h = AggregationHarness.of(schema("x", PrimitiveType.LONG), OutputMode.COMPLETE, null, null,
        List.of("k"), sum("x"));
    assertThat(h.step.schema().field(1)).isEqualTo(StructField.of("sum(x)", PrimitiveType.LONG, true));
    assertThat(h.run(0, Row.of("a", Long.MAX_VALUE), Row.of("a", 1L))).containsExactly(Row.of("a", Long.MIN_VALUE));
    assertThat(aggregate(PrimitiveType.BYTE, List.of(r("a", (byte) 100), r("a", (byte) 100), r("a", null)), sum("x")))
        .containsExactly(Row.of("a", 200L));
  }

  @Test
  void sumOfOnlyNullsIsNullButCountIsZero() {
    assertThat(aggregate(PrimitiveType.INTEGER, List.of(r("a", null), r("a", null)), sum("x"), avg("x"), min("x"),
        max("x"), count("x"), approxCountDistinct("x")))
        .containsExactly(Row.of("a", null, null, null, null, 0L, 0L));
  }

  @Test
  void floatingPointSumAndAvgAreDoubles() {
    List<Row> out = aggregate(PrimitiveType.FLOAT, List.of(r("a", 1.5f), r("a", 2.0f), r("a", null)), sum("x"),
        avg("x"));
    assertThat(out).containsExactly(Row.of("a", 3.5d, 1.75d));
  }

  @Test
  void integralAvgIsADouble() {
    AggregationHarness h = AggregationHarness.of(schema("x", PrimitiveType.INTEGER), OutputMode.COMPLETE, null, null,
        List.of("k"), avg("x"));
    assertThat(h.step.schema().field(1).type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(h.run(0, Row.of("a", 1), Row.of("a", 2))).containsExactly(Row.of("a", 1.5d));
  }

  @Test
  void decimalSumWidensByTenDigitsAndAvgByFourDigitsOfScale() {
    AggregationHarness h = AggregationHarness.of(schema("x", DecimalType.of(10, 2)), OutputMode.COMPLETE, null, null,
        List.of("k"), sum("x"), avg("x"));
    assertThat(h.step.schema().field(1).type()).isEqualTo(DecimalType.of(20, 2));
    assertThat(h.step.schema().field(2).type()).isEqualTo(DecimalType.of(14, 6));
    assertThat(h.run(0, Row.of("a", new BigDecimal("1.00")), Row.of("a", new BigDecimal("0.01")),
        Row.of("a", new BigDecimal("1.00"))))
        .containsExactly(Row.of("a", new BigDecimal("2.01"), new BigDecimal("0.670000")));
  }

  @Test
  void decimalAvgRoundsHalfUp() {
    assertThat(aggregate(DecimalType.of(5, 0), List.of(r("a", new BigDecimal("2")), r("a", new BigDecimal("0")),
        r("a", new BigDecimal("0"))), avg("x")))
        .containsExactly(Row.of("a", new BigDecimal("0.6667")));
  }

  @Test
  void decimalSumThatOverflowsStaysNull() {
    BigDecimal big = new BigDecimal("9".repeat(36) + ".00");
    AggregationHarness h = AggregationHarness.of(schema("x", DecimalType.of(38, 2)), OutputMode.COMPLETE, null, null,
        List.of("k"), sum("x"), count("x"), avg("x"));
    assertThat(h.step.schema().field(1).type()).isEqualTo(DecimalType.of(38, 2));
    assertThat(h.run(0, Row.of("a", big), Row.of("a", big))).containsExactly(Row.of("a", null, 2L, null));
    assertThat(h.run(0, Row.of("a", big.negate()))).containsExactly(Row.of("a", null, 3L, null));
  }

  @Test
  void minAndMaxKeepTheInputTypeAndIgnoreNulls() {
    assertThat(aggregate(PrimitiveType.LONG, List.of(r("a", 5L), r("a", null), r("a", -3L), r("a", 9L)), min("x"),
        max("x"))).containsExactly(Row.of("a", -3L, 9L));
    assertThat(aggregate(PrimitiveType.DATE, List.of(r("a", LocalDate.of(2026, 1, 2)), r("a", LocalDate.of(1969, 1, 1))),
        min("x"), max("x"))).containsExactly(Row.of("a", LocalDate.of(1969, 1, 1), LocalDate.of(2026, 1, 2)));
    Instant early = Instant.parse("2026-11-30T00:00:00.000001Z");
    Instant late = Instant.parse("2026-11-30T00:00:00.000002Z");
    assertThat(aggregate(PrimitiveType.TIMESTAMP, List.of(r("a", late), r("a", early)), min("x"), max("x")))
        .containsExactly(Row.of("a", early, late));
    assertThat(aggregate(PrimitiveType.BOOLEAN, List.of(r("a", true), r("a", false)), min("x"), max("x")))
        .containsExactly(Row.of("a", false, true));
    assertThat(aggregate(DecimalType.of(5, 2), List.of(r("a", new BigDecimal("1.50")), r("a", new BigDecimal("-2.25"))),
        min("x"), max("x"))).containsExactly(Row.of("a", new BigDecimal("-2.25"), new BigDecimal("1.50")));
  }

  @Test
  void stringsOrderByCodePointAsSparkOrdersUtf8() {
    // U+FF5E (a BMP char above the surrogates) sorts before U+1F600 by code point, after it by UTF-16 unit.
    String bmp = "\uFF5E";
    String emoji = new String(Character.toChars(0x1F600));
    assertThat(aggregate(PrimitiveType.STRING, List.of(r("a", emoji), r("a", bmp), r("a", "Z"), r("a", "a")),
        min("x"), max("x"))).containsExactly(Row.of("a", "Z", emoji));
  }

  @Test
  void binaryOrdersUnsignedByteByByte() {
    byte[] high = {(byte) 0xFF};
    byte[] low = {0x01, 0x02};
    List<Row> out = aggregate(PrimitiveType.BINARY, List.of(r("a", high), r("a", low)), min("x"), max("x"));
    assertThat((byte[]) out.get(0).get(1)).isEqualTo(low);
    assertThat((byte[]) out.get(0).get(2)).isEqualTo(high);
  }

  @Test
  void nanIsTheLargestDoubleAndNegativeZeroEqualsZero() {
    assertThat(aggregate(PrimitiveType.DOUBLE, List.of(r("a", 1.0d), r("a", Double.NaN), r("a", -5.0d)), min("x"),
        max("x"))).containsExactly(Row.of("a", -5.0d, Double.NaN));
    // min keeps the first of equal values, as Spark's Least over a buffer does.
    assertThat(aggregate(PrimitiveType.DOUBLE, List.of(r("a", 0.0d), r("a", -0.0d)), min("x")).get(0).get(1))
        .isEqualTo(0.0d);
  }

  @Test
  void nullKeysFormOneGroupAndNegativeZeroKeysJoinZero() {
    StructType s = StructType.of(StructField.of("k", PrimitiveType.DOUBLE), StructField.of("x", PrimitiveType.LONG));
    AggregationHarness h = AggregationHarness.of(s, OutputMode.COMPLETE, null, null, List.of("k"), count());
    List<Row> out = h.run(0, Row.of(null, 1L), Row.of(null, 2L), Row.of(0.0d, 3L), Row.of(-0.0d, 4L));
    assertThat(out).containsExactlyInAnyOrder(Row.of(null, 2L), Row.of(0.0d, 2L));
  }

  @Test
  void decimalKeysWithDifferentScalesAreOneGroup() {
    StructType s = StructType.of(StructField.of("k", DecimalType.of(5, 2)), StructField.of("x", PrimitiveType.LONG));
    AggregationHarness h = AggregationHarness.of(s, OutputMode.COMPLETE, null, null, List.of("k"), count());
    assertThat(h.run(0, Row.of(new BigDecimal("1.5"), 1L), Row.of(new BigDecimal("1.50"), 1L)))
        .containsExactly(Row.of(new BigDecimal("1.50"), 2L));
  }

  @Test
  void aggregatesAccumulateAcrossBatchesThroughState() {
    AggregationHarness h = AggregationHarness.of(schema("x", PrimitiveType.INTEGER), OutputMode.COMPLETE, null, null,
        List.of("k"), count(), sum("x"), avg("x"), min("x"), max("x"));
    h.run(0, Row.of("a", 4), Row.of("a", 2));
    assertThat(h.run(0, Row.of("a", 9), Row.of("a", null))).containsExactly(Row.of("a", 4L, 15L, 5.0d, 2, 9));
  }

  @Test
  void defaultNamesFollowSparkAndAliasesReplaceThem() {
    AggregationHarness h = AggregationHarness.of(schema("amount", PrimitiveType.LONG), OutputMode.COMPLETE, null, null,
        List.of("k"), count(), count("amount"), sum("amount"), avg("amount"), min("amount"), max("amount"),
        approxCountDistinct("amount"), sum("amount").as("total"));
    assertThat(h.step.schema().fieldNames()).containsExactly("k", "count", "count(amount)", "sum(amount)",
        "avg(amount)", "min(amount)", "max(amount)", "approx_count_distinct(amount)", "total");
    assertThat(h.step.schema().field(1).nullable()).isFalse();
    assertThat(h.step.schema().field(7)).isEqualTo(StructField.of("approx_count_distinct(amount)", PrimitiveType.LONG,
        false));
  }

  @Test
  void globalAggregationWithoutKeysIsOneGroup() {
    AggregationHarness h = AggregationHarness.of(schema("x", PrimitiveType.LONG), OutputMode.UPDATE, null, null,
        List.of(), count(), sum("x"));
    h.run(0, Row.of("a", 1L), Row.of("b", 2L));
    assertThat(h.run(0, Row.of("c", 3L))).containsExactly(Row.of(3L, 6L));
  }
}
