package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The token reader takes only lines the tree reader would read without a word to say (no error, nothing rescued),
 * and gives the same values for them; every other line is left to the tree reader.
 */
class JsonFastPathTest {
  static final StructType SCHEMA = StructType.empty().add("s", PrimitiveType.STRING).add("t", PrimitiveType.TIMESTAMP)
      .add("d", DecimalType.of(10, 2)).add("l", PrimitiveType.LONG).add("i", PrimitiveType.INTEGER)
      .add("sh", PrimitiveType.SHORT).add("b", PrimitiveType.BYTE).add("x", PrimitiveType.DOUBLE)
      .add("f", PrimitiveType.FLOAT).add("ok", PrimitiveType.BOOLEAN).add("day", PrimitiveType.DATE)
      .add("bin", PrimitiveType.BINARY);

  static final List<String> LINES = List.of(
      "{\"s\":\"a\",\"t\":\"2023-12-31T23:58:51.220Z\",\"d\":124.69,\"l\":5,\"i\":7}",
      "{\"d\":479.10,\"d2\":1}", "{\"d\":1.000}", "{\"d\":1.005}", "{\"d\":12345678901}", "{\"d\":\"12.5\"}",
      "{\"d\":0.0}", "{\"d\":-0}", "{\"d\":-0.0}", "{\"d\":-12.3}", "{\"d\":999999999.5}",
      "{\"d\":99999999.995}", "{\"d\":123456789012345678901.5}", "{\"d\":1e2}", "{\"d\":1E-2}", "{\"d\":99999999.99}", "{\"d\":100000000}",
      "{\"l\":9223372036854775807}", "{\"l\":9223372036854775808}", "{\"l\":1.5}", "{\"l\":\"5\"}",
      "{\"i\":2147483648}", "{\"i\":-2147483648}", "{\"sh\":32767}", "{\"sh\":32768}", "{\"b\":-128}", "{\"b\":128}",
      "{\"x\":1}", "{\"x\":1.1}", "{\"x\":\"NaN\"}", "{\"x\":1e400}", "{\"x\":9007199254740993}",
      "{\"f\":16777217}", "{\"f\":0.1}", "{\"f\":\"-inf\"}", "{\"ok\":true}", "{\"ok\":\"true\"}", "{\"ok\":1}",
      "{\"t\":1704101640}", "{\"t\":\"2024-02-30T00:00:00Z\"}", "{\"t\":\"2024-01-01\"}", "{\"t\":\" 2024-01-01T10:00:00 \"}",
      "{\"t\":\"0001-01-01T00:00:00+01:00\"}", "{\"t\":null}", "{\"s\":null,\"t\":null}", "{\"s\":1}", "{\"s\":{\"a\":1}}",
      "{\"s\":[1]}", "{\"S\":\"a\"}", "{\"s\":\"a\",\"s\":\"b\"}", "{\"day\":\"2024-02-29\"}", "{\"day\":\"2023-02-29\"}",
      "{\"bin\":\"AAEC\"}", "{\"bin\":\"!!\"}", "{}", "{} {}", "{}x", "[1]", "5", "null", "\"s\"", "{\"s\":\"a\"",
      "{\"s\":\"a\",}", "{'s':'a'}", "{\"s\":\"\\u00e9\\n\"}", "  {\"s\" : \"a\" }  ", "{\"u\":1}", "{\"s\":\"a\"}//");

  @Test
  void readsExactlyWhatTheTreeReadsWithoutComment() {
    for (boolean rescue : new boolean[] {false, true}) {
      JsonLineParser parser = new JsonLineParser(SCHEMA, rescue ? new FileSourceOptions.Rescue(java.util.Optional.of("_rescued_data"), true)
          : FileSourceOptions.Rescue.OFF);
      JsonFastPath fast = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA);
      int taken = 0;
      int plainTaken = 0;
      for (String line : LINES) {
        Object[] values = fast.read(line);
        RecordParser.Parsed tree = parser.parseTree(line);
        if (values != null) {
          taken++;
          assertThat(tree.errors()).as(line).isEmpty();
          assertThat(tree.rescued()).as(line).isNull();
          assertThat(Row.of(values)).as(line).isEqualTo(Row.of(tree.values()));
        }
        byte[] bytes = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Object[] plain = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA).readPlain(bytes, 0, bytes.length);
        if (plain != null) {
          plainTaken++;
          assertThat(values).as("taken by Jackson too: " + line).isNotNull();
          assertThat(Row.of(plain)).as(line).isEqualTo(Row.of(values));
        }
        RecordParser.Parsed both = parser.parse(line);
        assertThat(both.errors()).as(line).isEqualTo(tree.errors());
        assertThat(both.rescued()).as(line).isEqualTo(tree.rescued());
        assertThat(Row.of(both.values())).as(line).isEqualTo(Row.of(tree.values()));
      }
      assertThat(taken).isGreaterThan(25);
      assertThat(plainTaken).isGreaterThan(15);
    }
  }

  /**
   * Lines built from pieces that each reader may judge differently (escapes, exponents, leading zeros, blanks,
   * literals, truncation, unknown and repeated fields): a line read from its bytes without Jackson is one Jackson's
   * reader takes too, with the same values, and together they take what they took before.
   */
  @Test
  void theByteReaderTakesOnlyWhatJacksonTakesWithTheSameValues() {
    String[] names = {"\"s\"", "\"t\"", "\"d\"", "\"l\"", "\"i\"", "\"sh\"", "\"x\"", "\"ok\"", "\"day\"", "\"u\"",
        "\"S\"", "\"s\\u0041\""};
    String[] values = {"\"a\"", "\"\"", "\"a\\\"b\"", "\"2024-01-01T10:00:00Z\"", "\"2024-01-01T10:00:00.123+01:00\"",
        "\" 2024-01-01\"", "\"99999-01-01T00:00:00Z\"", "12", "-0", "0", "01", "-", "1.5", "1.25", "-12.30", "1.005", "1e2",
        "1E+2", "123456789012", "2147483648", "-2147483648", "32768", "9223372036854775807", "1234567890123456789",
        "true", "false", "null", "nul", "truex", "[1]", "{}", "\"12.5\"", "\"x\ty\"", "\"2024-02-29\""};
    String[] gaps = {"", " ", "\t", "  "};
    java.util.Random random = new java.util.Random(11);
    int plainTaken = 0;
    for (int round = 0; round < 20_000; round++) {
      StringBuilder line = new StringBuilder("{").append(gaps[random.nextInt(gaps.length)]);
      int fields = random.nextInt(5);
      for (int f = 0; f < fields; f++) {
        if (f > 0) {
          line.append(gaps[random.nextInt(gaps.length)]).append(',').append(gaps[random.nextInt(gaps.length)]);
        }
        line.append(names[random.nextInt(names.length)]).append(gaps[random.nextInt(gaps.length)]).append(':')
            .append(gaps[random.nextInt(gaps.length)]).append(values[random.nextInt(values.length)]);
      }
      line.append(gaps[random.nextInt(gaps.length)]).append(random.nextInt(20) == 0 ? "" : "}")
          .append(random.nextInt(20) == 0 ? " x" : gaps[random.nextInt(gaps.length)]);
      byte[] bytes = line.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      Object[] plain = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA).readPlain(bytes, 0, bytes.length);
      JsonFastPath jackson = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA);
      Object[] viaJackson = jackson.read(bytes, 0, bytes.length);
      jackson.release();
      if (plain != null) {
        plainTaken++;
        assertThat(viaJackson).as(line.toString()).isNotNull();
        assertThat(Row.of(plain)).as(line.toString()).isEqualTo(Row.of(viaJackson));
      }
    }
    assertThat(plainTaken).isGreaterThan(2_000);
  }

  @Test
  void consecutiveCleanLinesShareOneParserAndEveryOtherLineEndsIt() {
    StringBuilder file = new StringBuilder();
    for (int n = 0; n < 500; n++) {
      file.append("{\"s\":\"a").append(n).append("\",\"l\":").append(n).append("}\n");
    }
    file.append("{\"s\":\"a\",}\n"); // invalid: the parser after it is a new one
    for (int n = 0; n < 500; n++) {
      file.append("{\"l\":").append(n).append("}  \r\n");
    }
    byte[] bytes = file.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    JsonFastPath fast = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA);
    List<Object[]> read = new java.util.ArrayList<>();
    int from = 0;
    while (from < bytes.length) {
      int end = from;
      while (bytes[end] != '\n') {
        end++;
      }
      int stop = bytes[end - 1] == '\r' ? end - 1 : end;
      read.add(fast.read(bytes, from, stop - from));
      from = end + 1;
    }
    fast.release();

    assertThat(read).hasSize(1001);
    assertThat(read.get(499)).containsExactly("a499", null, null, 499L, null, null, null, null, null, null, null, null);
    assertThat(read.get(500)).isNull();
    assertThat(read.get(1000)[3]).isEqualTo(499L);
    assertThat(read.stream().filter(java.util.Objects::isNull)).hasSize(1);
    assertThat(fast.parsersCreated()).isEqualTo(2);
  }

  @Test
  void linesThatRepeatValuesOrChangeTheirFieldOrderReadAsTheTreeReadsThem() {
    List<String> lines = List.of("{\"s\":\"a\",\"t\":\"2024-01-01T10:00:00Z\",\"d\":1.5}",
        "{\"s\":\"b\",\"t\":\"2024-01-01T10:00:00Z\",\"d\":1.5}", "{\"d\":2.25,\"s\":\"c\",\"t\":\"2024-01-01T10:00:00Z\"}",
        "{\"t\":\"2024-01-01T10:00:00.5Z\",\"l\":3}", "{\"t\":\" 2024-01-01T10:00:00.5Z\"}",
        "{\"t\":\"2024-01-01T10:00:00.5Z\",\"S\":\"x\"}", "{\"t\":\"2024-01-01T10:00:00.5Z\",\"s\":\"x\"}",
        "{\"t\":\"10000-01-01T00:00:00Z\"}", "{\"s\":\"y\",\"d\":-3}");
    byte[] bytes = (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    JsonFastPath fast = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA);
    JsonLineParser tree = new JsonLineParser(SCHEMA);
    int from = 0;
    int taken = 0;
    for (String line : lines) {
      Object[] values = fast.read(bytes, from, line.length());
      from += line.length() + 1;
      RecordParser.Parsed expected = tree.parseTree(line);
      if (values != null) {
        taken++;
        assertThat(expected.errors()).as(line).isEmpty();
        assertThat(Row.of(values)).as(line).isEqualTo(Row.of(expected.values()));
      } else {
        assertThat(line).as("left to the tree").matches(".*(\"S\"|10000).*");
      }
    }
    fast.release();
    assertThat(taken).isEqualTo(7); // the padded timestamp too: it is trimmed, as the tree trims it
  }

  @Test
  void anObjectRunningPastItsLineIsLeftToTheTreeAndTheNextLineStillReads() {
    byte[] bytes = "{\"s\":\"a\"\n,\"l\":1}\n{\"l\":2} {\"l\":3}\n{\"l\":4}\n".getBytes(
        java.nio.charset.StandardCharsets.US_ASCII);
    JsonFastPath fast = new JsonFastPath(JsonLineParser.MAPPER.getFactory(), SCHEMA);

    assertThat(fast.read(bytes, 0, 8)).isNull(); // {"s":"a"  (the object ends on the next line)
    assertThat(fast.read(bytes, 17, 15)).isNull(); // {"l":2} {"l":3}
    assertThat(fast.read(bytes, 33, 7)[3]).isEqualTo(4L);
    fast.release();
  }
}
