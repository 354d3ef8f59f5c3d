package dev.sluice.table.internal.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PartitionValuesTest {

  static Stream<Arguments> typedValues() {
    return Stream.of(
        Arguments.of(PrimitiveType.STRING, "a b/c=d", "a b/c=d"),
        Arguments.of(PrimitiveType.STRING, "null", "null"),
        Arguments.of(PrimitiveType.LONG, Long.MIN_VALUE, "-9223372036854775808"),
        Arguments.of(PrimitiveType.INTEGER, 42, "42"),
        Arguments.of(PrimitiveType.SHORT, (short) -7, "-7"),
        Arguments.of(PrimitiveType.BYTE, (byte) 127, "127"),
        Arguments.of(PrimitiveType.DOUBLE, 1.0, "1.0"),
        Arguments.of(PrimitiveType.DOUBLE, 1e-300, "1.0E-300"),
        Arguments.of(PrimitiveType.DOUBLE, Double.NaN, "NaN"),
        Arguments.of(PrimitiveType.FLOAT, 0.1f, "0.1"),
        Arguments.of(PrimitiveType.BOOLEAN, true, "true"),
        Arguments.of(PrimitiveType.BOOLEAN, false, "false"),
        Arguments.of(PrimitiveType.DATE, LocalDate.of(2021, 9, 8), "2021-09-08"),
        Arguments.of(PrimitiveType.TIMESTAMP, Instant.parse("2021-09-08T11:11:11Z"), "2021-09-08T11:11:11.000000Z"),
        Arguments.of(PrimitiveType.TIMESTAMP, Instant.parse("1969-12-31T23:59:59.999999Z"),
            "1969-12-31T23:59:59.999999Z"),
        Arguments.of(DecimalType.of(10, 2), new BigDecimal("1.50"), "1.50"),
        Arguments.of(DecimalType.of(38, 10), new BigDecimal("0.0000000100"), "0.0000000100"),
        Arguments.of(DecimalType.of(1, 0), BigDecimal.ONE, "1"));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("typedValues")
  void encodesAndDecodesEveryType(DataType type, Object value, String text) {
    assertThat(PartitionValues.encode(value, type)).isEqualTo(text);
    assertThat(PartitionValues.decode(text, type)).isEqualTo(value);
  }

  @Test
  void roundTripsBinaryAsUtf8Text() {
    byte[] bytes = "héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    String text = PartitionValues.encode(bytes, PrimitiveType.BINARY);
    assertThat(text).isEqualTo("héllo");
    assertThat((byte[]) PartitionValues.decode(text, PrimitiveType.BINARY)).isEqualTo(bytes);
    assertThatThrownBy(() -> PartitionValues.encode(new byte[] {(byte) 0xff}, PrimitiveType.BINARY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid UTF-8");
  }

  @Test
  void nullAndEmptyAreNull() {
    for (DataType type : List.of(PrimitiveType.STRING, PrimitiveType.LONG, PrimitiveType.TIMESTAMP)) {
      assertThat(PartitionValues.encode(null, type)).isNull();
      assertThat(PartitionValues.decode(null, type)).isNull();
      assertThat(PartitionValues.decode("", type)).isNull();
    }
  }

  @Test
  void decodesBothTimestampForms() {
    Instant expected = Instant.parse("2021-09-08T11:11:11Z");
    assertThat(PartitionValues.decode("2021-09-08 11:11:11", PrimitiveType.TIMESTAMP)).isEqualTo(expected);
    assertThat(PartitionValues.decode("2021-09-08T11:11:11.000000Z", PrimitiveType.TIMESTAMP)).isEqualTo(expected);
    assertThat(PartitionValues.decode("2021-09-08T04:11:11-07:00", PrimitiveType.TIMESTAMP)).isEqualTo(expected);
    assertThat(PartitionValues.decode("2021-09-08 11:11:11.5", PrimitiveType.TIMESTAMP))
        .isEqualTo(expected.plusMillis(500));
    assertThat(PartitionValues.decode("2021-09-08 11:11:11.123456", PrimitiveType.TIMESTAMP))
        .isEqualTo(Instant.parse("2021-09-08T11:11:11.123456Z"));
  }

  @Test
  void decimalsAreWrittenAtTheColumnScale() {
    assertThat(PartitionValues.encode(new BigDecimal("1.5"), DecimalType.of(5, 2))).isEqualTo("1.50");
    assertThat(PartitionValues.encode(3L, DecimalType.of(5, 2))).isEqualTo("3.00");
    assertThatThrownBy(() -> PartitionValues.encode(new BigDecimal("1.555"), DecimalType.of(5, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("1.555 has more than 2 fractional digits, so it is not a decimal(5,2) value");
    assertThatThrownBy(() -> PartitionValues.encode(new BigDecimal("1234.5"), DecimalType.of(5, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("1234.5 has too many integer digits for decimal(5,2)");
  }

  @Test
  void refusesValuesOfTheWrongType() {
    assertThatThrownBy(() -> PartitionValues.encode("7", PrimitiveType.LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Value 7 (String) is not a long value; see the Java mapping documented on DataType");
    assertThatThrownBy(() -> PartitionValues.encode(300, PrimitiveType.BYTE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("300 is out of range for byte");
    assertThatThrownBy(() -> PartitionValues.decode("x1", PrimitiveType.INTEGER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'x1' is not a valid integer value");
    assertThatThrownBy(() -> PartitionValues.decode("yes", PrimitiveType.BOOLEAN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'yes' is not a valid boolean value");
    assertThatThrownBy(() -> PartitionValues.decode("2021-13-01", PrimitiveType.DATE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'2021-13-01' is not a valid date value");
  }

  @Test
  void escapesLikeHive() {
    assertThat(PartitionValues.escapePathName("2021-09-08 11:11:11")).isEqualTo("2021-09-08 11%3A11%3A11");
    assertThat(PartitionValues.escapePathName("a/b=c%d")).isEqualTo("a%2Fb%3Dc%25d");
    assertThat(PartitionValues.escapePathName("\"#'*?\\{[]^\u007F\u0001\n"))
        .isEqualTo("%22%23%27%2A%3F%5C%7B%5B%5D%5E%7F%01%0A");
    assertThat(PartitionValues.escapePathName("plain-text_ (ok) + é <>|,;}")).isEqualTo("plain-text_ (ok) + é <>|,;}");
  }

  @Test
  void unescapesWhatItEscapes() {
    String nasty = "a:b/c=d%e\"f#g'h*i?j\\k{l[m]n^o\u0001 é%zz";
    assertThat(PartitionValues.unescapePathName(PartitionValues.escapePathName(nasty))).isEqualTo(nasty);
    assertThat(PartitionValues.unescapePathName("100%")).isEqualTo("100%");
    assertThat(PartitionValues.unescapePathName("a%2")).isEqualTo("a%2");
  }

  @Test
  void buildsHiveStyleFolders() {
    LinkedHashMap<String, String> values = new LinkedHashMap<>();
    values.put("day", "2021-09-08");
    values.put("ts", "2021-09-08T11:11:11.000000Z");
    values.put("region", null);
    values.put("empty", "");
    values.put("a=b", "x/y");
    assertThat(PartitionValues.partitionPath(values)).isEqualTo(
        "day=2021-09-08/ts=2021-09-08T11%3A11%3A11.000000Z/region=__HIVE_DEFAULT_PARTITION__"
            + "/empty=__HIVE_DEFAULT_PARTITION__/a%3Db=x%2Fy");
    assertThat(PartitionValues.partitionPath(new LinkedHashMap<>())).isEmpty();
  }

  @Test
  void encodesLogPathsLikeHadoopPath() {
    assertThat(PartitionValues.toLogPath("a=2021-09-08 11%3A11%3A11/part-0.parquet"))
        .isEqualTo("a=2021-09-08%2011%253A11%253A11/part-0.parquet");
    assertThat(PartitionValues.toLogPath("_2=bar+%2521/part-0.parquet")).isEqualTo("_2=bar+%252521/part-0.parquet");
    assertThat(PartitionValues.toLogPath("special p@#h")).isEqualTo("special%20p@%23h");
    assertThat(PartitionValues.toLogPath("x\"<>?[]{}|\\^`:")).isEqualTo("x%22%3C%3E%3F%5B%5D%7B%7D%7C%5C%5E%60%3A");
    assertThat(PartitionValues.toLogPath("keep-_.!~*'()&=+$,;/é")).isEqualTo("keep-_.!~*'()&=+$,;/é");
    assertThat(PartitionValues.toLogPath("nbsp\u00A0tab\t")).isEqualTo("nbsp%C2%A0tab%09");
  }

  @Test
  void decodesLogPaths() {
    assertThat(PartitionValues.fromLogPath("a=2021-09-08%2011%253A11%253A11/part-0.parquet"))
        .isEqualTo("a=2021-09-08 11%3A11%3A11/part-0.parquet");
    assertThat(PartitionValues.fromLogPath("special%20p@%23h")).isEqualTo("special p@#h");
    assertThat(PartitionValues.fromLogPath("a+b%C3%A9%e2%82%AC")).isEqualTo("a+bé€");
    assertThat(PartitionValues.fromLogPath("plain/part-0.parquet")).isEqualTo("plain/part-0.parquet");
  }

  @Test
  void logPathRoundTripsAnyKey() {
    String key = "p=" + PartitionValues.escapePathName("a:b %c/#?é€\uD83D\uDE00\u00A0") + "/part-0 (1).parquet";
    assertThat(PartitionValues.fromLogPath(PartitionValues.toLogPath(key))).isEqualTo(key);
  }

  @Test
  void logPathMatchesJavaNetUriQuotingAsHadoopPathUsesIt() throws Exception {
    java.util.Random random = new java.util.Random(42);
    String alphabet = "aZ09-_.!~*'()@&=+$,;/ \"#%<>?[]{}|\\^`\t\u0001\u007F\u00A0\u2028é€\uD83D\uDE00";
    for (int n = 0; n < 2_000; n++) {
      StringBuilder key = new StringBuilder("k");
      for (int i = random.nextInt(12); i >= 0; i--) {
        int at = random.nextInt(alphabet.length());
        if (Character.isHighSurrogate(alphabet.charAt(at))) {
          key.append(alphabet, at, at + 2);
        } else if (!Character.isLowSurrogate(alphabet.charAt(at))) {
          key.append(alphabet.charAt(at));
        }
      }
      String expected = new java.net.URI(null, null, key.toString(), null).getRawPath();
      assertThat(PartitionValues.toLogPath(key.toString())).as(key.toString()).isEqualTo(expected);
      assertThat(PartitionValues.fromLogPath(expected)).isEqualTo(key.toString());
    }
  }

  @Test
  void refusesMalformedEscapes() {
    assertThatThrownBy(() -> PartitionValues.fromLogPath("a%2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("add.path 'a%2' has a '%' at position 1 that is not followed by two hex digits; "
            + "the log must store paths URI-encoded (the writer of this entry did not)");
    assertThatThrownBy(() -> PartitionValues.fromLogPath("a%zz"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 1");
    assertThatThrownBy(() -> PartitionValues.fromLogPath("a%FF"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid UTF-8");
  }

  @Test
  void tellsAbsoluteFromRelativeLogPaths() {
    assertThat(PartitionValues.isAbsoluteLogPath("s3://bucket/t/part-0.parquet")).isTrue();
    assertThat(PartitionValues.isAbsoluteLogPath("file:/tmp/t/part-0.parquet")).isTrue();
    assertThat(PartitionValues.isAbsoluteLogPath("/tmp/t/part-0.parquet")).isTrue();
    assertThat(PartitionValues.isAbsoluteLogPath("part-0.parquet")).isFalse();
    assertThat(PartitionValues.isAbsoluteLogPath("ts=2021-09-08%2011%253A11/part-0.parquet")).isFalse();
  }

  @Test
  void convertsBetweenRowsAndPartitionValues() {
    StructType schema = StructType.empty()
        .add("id", PrimitiveType.LONG)
        .add("Day", PrimitiveType.DATE)
        .add("n", PrimitiveType.INTEGER);
    Row row = Row.of(1L, LocalDate.of(2021, 9, 8), null);
    LinkedHashMap<String, String> values = PartitionValues.fromRow(schema, List.of("day", "n"), row);
    assertThat(values.keySet()).containsExactly("Day", "n");
    assertThat(values.get("Day")).isEqualTo("2021-09-08");
    assertThat(values.get("n")).isNull();
    assertThat(PartitionValues.toRow(schema, List.of("day", "n"), values))
        .isEqualTo(Row.of(null, LocalDate.of(2021, 9, 8), null));
    assertThat(PartitionValues.toRow(schema, List.of("Day"), Map.of("day", "2021-09-09")))
        .isEqualTo(Row.of(null, LocalDate.of(2021, 9, 9), null));
    assertThatThrownBy(() -> PartitionValues.toRow(schema, List.of("n"), Map.of("n", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Partition value 'x' of column 'n' is not a valid integer");
    assertThatThrownBy(() -> PartitionValues.toRow(schema, List.of("region"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition column 'region' is not in the table schema [id, Day, n]; "
            + "the table's metadata is inconsistent");
  }
}
