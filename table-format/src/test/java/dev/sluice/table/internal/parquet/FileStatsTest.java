package dev.sluice.table.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FileStatsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode collect(StructType schema, int numIndexedCols, Row... rows) throws Exception {
    return JSON.readTree(json(schema, numIndexedCols, rows));
  }

  private static String json(StructType schema, int numIndexedCols, Row... rows) {
    FileStats stats = new FileStats(schema, numIndexedCols);
    for (Row row : rows) {
      stats.add(row);
    }
    return stats.toJson();
  }

  @Test
  void numbersDatesAndDecimalsGetExactBoundsAndNullCounts() throws Exception {
    StructType schema = StructType.empty()
        .add("i", PrimitiveType.INTEGER).add("l", PrimitiveType.LONG).add("sh", PrimitiveType.SHORT)
        .add("b", PrimitiveType.BYTE).add("f", PrimitiveType.FLOAT).add("dt", PrimitiveType.DATE)
        .add("dec", DecimalType.of(10, 3));

    String stats = json(schema, 32,
        Row.of(5, 10L, (short) -3, (byte) 7, 1.5f, LocalDate.of(2024, 2, 29), new BigDecimal("-0.100")),
        Row.of(null, -10L, (short) 9, null, -2.25f, LocalDate.of(1969, 7, 20), new BigDecimal("1234567.000")),
        Row.of(-1, null, null, (byte) -8, null, null, null));

    assertThat(stats).isEqualTo("{\"numRecords\":3,"
        + "\"minValues\":{\"i\":-1,\"l\":-10,\"sh\":-3,\"b\":-8,\"f\":-2.25,\"dt\":\"1969-07-20\",\"dec\":-0.100},"
        + "\"maxValues\":{\"i\":5,\"l\":10,\"sh\":9,\"b\":7,\"f\":1.5,\"dt\":\"2024-02-29\",\"dec\":1234567.000},"
        + "\"nullCount\":{\"i\":1,\"l\":1,\"sh\":1,\"b\":1,\"f\":1,\"dt\":1,\"dec\":1}}");
  }

  @Test
  void allNullColumnsAndUnorderedTypesGetOnlyANullCount() throws Exception {
    StructType schema = StructType.empty()
        .add("s", PrimitiveType.STRING).add("bool", PrimitiveType.BOOLEAN).add("bin", PrimitiveType.BINARY)
        .add("arr", new ArrayType(PrimitiveType.INTEGER, true));

    JsonNode stats = collect(schema, 32,
        Row.of(null, true, new byte[] {1}, List.of(1)),
        Row.of(null, null, null, null));

    assertThat(stats.get("minValues").size()).isZero();
    assertThat(stats.get("maxValues").size()).isZero();
    assertThat(stats.get("nullCount").toString()).isEqualTo("{\"s\":2,\"bool\":1,\"bin\":1,\"arr\":1}");
  }

  @Test
  void nanIsSkippedAndInfiniteBoundsAreLeftOut() throws Exception {
    StructType schema = StructType.empty().add("d", PrimitiveType.DOUBLE).add("inf", PrimitiveType.DOUBLE);

    JsonNode stats = collect(schema, 32,
        Row.of(Double.NaN, 1.0), Row.of(2.5, Double.POSITIVE_INFINITY), Row.of(-0.5, Double.NaN));

    assertThat(stats.get("minValues").toString()).isEqualTo("{\"d\":-0.5}");
    assertThat(stats.get("maxValues").toString()).isEqualTo("{\"d\":2.5}");
    assertThat(stats.get("nullCount").toString()).isEqualTo("{\"d\":0,\"inf\":0}");
  }

  @Test
  void aColumnOfOnlyNaNHasNoBounds() throws Exception {
    JsonNode stats = collect(StructType.empty().add("f", PrimitiveType.FLOAT), 32, Row.of(Float.NaN));

    assertThat(stats.get("minValues").has("f")).isFalse();
    assertThat(stats.get("nullCount").get("f").asLong()).isZero();
  }

  @Test
  void timestampsAreMillisecondsInUtcFlooredForMinAndMax() throws Exception {
    StructType schema = StructType.empty().add("ts", PrimitiveType.TIMESTAMP);

    JsonNode stats = collect(schema, 32,
        Row.of(Instant.parse("2024-03-01T10:00:00.123999Z")),
        Row.of(Instant.parse("1969-12-31T23:59:59.999500Z")),
        Row.of(Instant.parse("2024-03-01T10:00:00.456789Z")));

    assertThat(stats.get("minValues").get("ts").asText()).isEqualTo("1969-12-31T23:59:59.999Z");
    assertThat(stats.get("maxValues").get("ts").asText()).isEqualTo("2024-03-01T10:00:00.456Z");
  }

  @Test
  void longStringsGetAPrefixMinAndATieBrokenMax() throws Exception {
    String a = "a".repeat(40);
    String b = "b".repeat(31) + "\uD83D\uDE00" + "tail";
    JsonNode stats = collect(StructType.empty().add("s", PrimitiveType.STRING), 32, Row.of(a), Row.of(b), Row.of("ab"));

    String min = stats.get("minValues").get("s").asText();
    String max = stats.get("maxValues").get("s").asText();
    assertThat(min).isEqualTo("a".repeat(32));
    assertThat(max).isEqualTo("b".repeat(31) + "\uD83D\uDE00" + "\uDBFF\uDFFF");
    for (String value : List.of(a, b, "ab")) {
      assertThat(FileStats.compareCodePoints(min, value)).isLessThanOrEqualTo(0);
      assertThat(FileStats.compareCodePoints(max, value)).isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void aMaxPrefixIsExtendedPastMaximalCodePointsSoItStaysAnUpperBound() {
    String top = new String(Character.toChars(Character.MAX_CODE_POINT));
    String value = "x".repeat(32) + top + top + "y";

    String max = FileStats.truncatedMax(value);

    assertThat(max).isEqualTo("x".repeat(32) + top + top + top);
    assertThat(FileStats.compareCodePoints(max, value)).isPositive();
    assertThat(FileStats.truncatedMax("x".repeat(32) + top.repeat(40))).isNull();
    assertThat(FileStats.truncatedMax("x".repeat(32) + top.repeat(3))).isEqualTo("x".repeat(32) + top.repeat(3));
  }

  @Test
  void stringBoundsAreTheCodePointExtremesWhateverTheOrderAndPrefixesOfTheValues() throws Exception {
    // Short strings over an alphabet with U+0000, a surrogate pair and U+E000..U+FFFF, so that values share
    // 4-character prefixes, are prefixes of each other, and differ where UTF-16 and code point order disagree.
    String[] alphabet = {"\u0000", "a", "b", "\uD83D\uDE00", "\uE000", "\uFFFF"};
    java.util.Random random = new java.util.Random(7);
    for (int round = 0; round < 200; round++) {
      List<String> values = new java.util.ArrayList<>();
      for (int v = 0; v < 30; v++) {
        StringBuilder s = new StringBuilder();
        for (int c = random.nextInt(7); c > 0; c--) {
          s.append(alphabet[random.nextInt(alphabet.length)]);
        }
        values.add(s.toString());
      }
      Row[] rows = values.stream().map(v -> Row.of(v)).toArray(Row[]::new);

      JsonNode stats = collect(StructType.empty().add("s", PrimitiveType.STRING), 32, rows);

      List<String> sorted = values.stream().sorted(FileStats::compareCodePoints).toList();
      assertThat(stats.get("minValues").get("s").asText()).isEqualTo(sorted.get(0));
      assertThat(stats.get("maxValues").get("s").asText()).isEqualTo(sorted.get(sorted.size() - 1));
    }
  }

  @Test
  void stringsCompareByCodePointNotByUtf16Unit() {
    String privateUse = "\uE000";
    String emoji = "\uD83D\uDE00";

    assertThat(privateUse.compareTo(emoji)).isPositive();
    assertThat(FileStats.compareCodePoints(privateUse, emoji)).isNegative();
  }

  @Test
  void nestedStructsGiveNestedObjectsAndAParentNullCountsForItsLeaves() throws Exception {
    StructType schema = StructType.empty()
        .add("id", PrimitiveType.LONG)
        .add("p", StructType.empty().add("q", PrimitiveType.INTEGER).add("r", StructType.empty().add("s", PrimitiveType.STRING)));

    JsonNode stats = collect(schema, 32,
        Row.of(1L, Row.of(3, Row.of("x"))), Row.of(2L, null), Row.of(3L, Row.of(null, Row.of("a"))));

    assertThat(stats.toString()).isEqualTo("{\"numRecords\":3,"
        + "\"minValues\":{\"id\":1,\"p\":{\"q\":3,\"r\":{\"s\":\"a\"}}},"
        + "\"maxValues\":{\"id\":3,\"p\":{\"q\":3,\"r\":{\"s\":\"x\"}}},"
        + "\"nullCount\":{\"id\":0,\"p\":{\"q\":2,\"r\":{\"s\":1}}}}");
  }

  @Test
  void onlyTheFirstNLeafColumnsDepthFirstAreIndexed() throws Exception {
    StructType schema = StructType.empty()
        .add("a", PrimitiveType.INTEGER)
        .add("n", StructType.empty().add("b", PrimitiveType.INTEGER).add("c", PrimitiveType.INTEGER))
        .add("d", PrimitiveType.INTEGER);

    JsonNode stats = collect(schema, 2, Row.of(1, Row.of(2, 3), 4));

    assertThat(stats.get("minValues").toString()).isEqualTo("{\"a\":1,\"n\":{\"b\":2}}");
    assertThat(stats.get("nullCount").toString()).isEqualTo("{\"a\":0,\"n\":{\"b\":0}}");
  }

  @Test
  void parsesStatsThatSparkWrote() {
    // From the golden table data-skipping-basic-stats-all-types (Spark 3.5, session time zone PST).
    String spark = "{\"numRecords\":1,\"minValues\":{\"as_int\":0,\"as_long\":0,\"as_byte\":0,\"as_short\":0,"
        + "\"as_float\":0.0,\"as_double\":0.0,\"as_string\":\"0\",\"as_date\":\"2000-01-01\","
        + "\"as_timestamp\":\"2000-01-01T00:00:00.000-08:00\",\"as_big_decimal\":0},\"maxValues\":{\"as_int\":0,"
        + "\"as_long\":0,\"as_byte\":0,\"as_short\":0,\"as_float\":0.0,\"as_double\":0.0,\"as_string\":\"0\","
        + "\"as_date\":\"2000-01-01\",\"as_timestamp\":\"2000-01-01T00:00:00.000-08:00\",\"as_big_decimal\":0},"
        + "\"nullCount\":{\"as_int\":0,\"as_long\":0,\"as_byte\":0,\"as_short\":0,\"as_float\":0,\"as_double\":0,"
        + "\"as_string\":0,\"as_date\":0,\"as_timestamp\":0,\"as_big_decimal\":0}}";
    StructType schema = StructType.empty()
        .add("as_int", PrimitiveType.INTEGER).add("as_long", PrimitiveType.LONG).add("as_byte", PrimitiveType.BYTE)
        .add("as_short", PrimitiveType.SHORT).add("as_float", PrimitiveType.FLOAT).add("as_double", PrimitiveType.DOUBLE)
        .add("as_string", PrimitiveType.STRING).add("as_date", PrimitiveType.DATE)
        .add("as_timestamp", PrimitiveType.TIMESTAMP).add("as_big_decimal", DecimalType.of(1, 0))
        .add("not_in_stats", PrimitiveType.STRING);

    ParsedStats stats = FileStats.parse(spark, schema);

    assertThat(stats.numRecords()).isEqualTo(OptionalLong.of(1));
    assertThat(stats.minValues()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "as_int", 0, "as_long", 0L, "as_byte", (byte) 0, "as_short", (short) 0, "as_float", 0.0f,
        "as_double", 0.0, "as_string", "0", "as_date", LocalDate.of(2000, 1, 1),
        "as_timestamp", Instant.parse("2000-01-01T08:00:00Z"), "as_big_decimal", BigDecimal.ZERO));
    assertThat(stats.maxValues()).isEqualTo(stats.minValues());
    assertThat(stats.nullCount()).hasSize(10).containsEntry("as_timestamp", 0L).doesNotContainKey("not_in_stats");
  }

  @Test
  void parsingIsTolerantOfOtherOffsetsUnknownColumnsAndBadValues() {
    StructType schema = StructType.empty()
        .add("ts", PrimitiveType.TIMESTAMP).add("ts2", PrimitiveType.TIMESTAMP).add("b", PrimitiveType.BYTE)
        .add("Nested", StructType.empty().add("x", PrimitiveType.LONG));
    String json = "{\"minValues\":{\"ts\":\"2020-01-01T00:00:00.000Z\",\"ts2\":\"2020-01-01T00:00:00.000+0530\","
        + "\"b\":300,\"unknown\":1,\"nested\":{\"x\":7}},"
        + "\"maxValues\":{\"ts\":\"2020-01-01 00:00:00\",\"ts2\":\"2020-01-01T00:00:00.000+05\",\"b\":\"x\"},"
        + "\"nullCount\":{\"nested\":{\"x\":2},\"b\":\"?\"}}";

    ParsedStats stats = FileStats.parse(json, schema);

    assertThat(stats.numRecords()).isEmpty();
    assertThat(stats.minValues()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "ts", Instant.parse("2020-01-01T00:00:00Z"),
        "ts2", Instant.parse("2019-12-31T18:30:00Z"),
        "Nested", Map.of("x", 7L)));
    assertThat(stats.maxValues()).containsExactlyEntriesOf(Map.of("ts2", Instant.parse("2019-12-31T19:00:00Z")));
    assertThat(stats.nullCount()).containsExactlyEntriesOf(Map.of("Nested", Map.of("x", 2L)));
  }

  @Test
  void whatWeWriteParsesBackToTheSameValues() {
    StructType schema = StructType.empty()
        .add("ts", PrimitiveType.TIMESTAMP).add("dec", DecimalType.of(20, 4)).add("s", PrimitiveType.STRING);
    FileStats stats = new FileStats(schema, 32);
    stats.add(Row.of(Instant.parse("2021-05-06T07:08:09.010Z"), new BigDecimal("12.3400"), "abc"));
    stats.add(Row.of(null, new BigDecimal("-1.0000"), null));

    ParsedStats parsed = FileStats.parse(stats.toJson(), schema);

    assertThat(parsed.numRecords()).hasValue(2);
    assertThat(parsed.minValues()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "ts", Instant.parse("2021-05-06T07:08:09.010Z"), "dec", new BigDecimal("-1.0000"), "s", "abc"));
    assertThat(parsed.maxValues().get("dec")).isEqualTo(new BigDecimal("12.3400"));
    assertThat(parsed.nullCount()).containsExactlyInAnyOrderEntriesOf(Map.of("ts", 1L, "dec", 0L, "s", 1L));
  }

  @Test
  void malformedJsonIsRefusedWithTheText() {
    assertThatThrownBy(() -> FileStats.parse("{\"numRecords\":", StructType.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("add.stats is not valid JSON")
        .hasMessageEndingWith(": {\"numRecords\":");
    assertThatThrownBy(() -> FileStats.parse("[1]", StructType.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("add.stats must be a JSON object, but is: [1]");
  }
}
