package dev.sluice.ingestion.source.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.table.data.Row;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Reading JSON lines straight from the file's bytes gives exactly the rows, corrupt records, errors and counters
 * that reading every line as text gives (the path CSV with a header still takes), whatever the file holds.
 */
class TextFileReaderTest {
  private static final String URI = "file:///in/f.jsonl";

  /** A file mixing clean lines with every kind of line the byte path must leave to the text path. */
  private static byte[] mixedFile(boolean bom) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (bom) {
      out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    }
    List<String> lines = new ArrayList<>(JsonFastPathTest.LINES);
    lines.addAll(List.of("", "   ", "\u001F", "{\"s\":\"caf\u00e9\"}", "{\"s\":\"a\"}\r", "{\"s\":\"\u00e9\",\"u\":1}",
        "\t{\"s\":\"tab\"}", "{\"s\":\"b\"}"));
    for (String line : lines) {
      out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    }
    out.writeBytes("{\"s\":\"bad \"".getBytes(StandardCharsets.UTF_8));
    out.writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28, '"', '}', '\r', '\n'}); // invalid UTF-8
    out.writeBytes("{\"s\":\"last, no newline\"}".getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  @Test
  void theBytePathReadsEveryFileAsTheTextPathDoes() {
    for (boolean bom : new boolean[] {false, true}) {
      for (boolean rescue : new boolean[] {false, true}) {
        byte[] content = mixedFile(bom);
        Result bytes = read(content, rescue, false);
        Result text = read(content, rescue, true);

        assertThat(bytes.rows).hasSize(text.rows.size()).isEqualTo(text.rows);
        assertThat(bytes.counters).isEqualTo(text.counters).containsKeys(FileSourceMetrics.MALFORMED_RECORDS,
            FileSourceMetrics.INVALID_UTF8_LINES);
      }
    }
  }

  @Test
  void lineEndsAndNonAsciiBytesAreFoundAtEveryOffsetWithinAWordOfEightBytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int length = 0; length < 20; length++) {
      for (int accent = -1; accent < length; accent++) {
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < length; i++) {
          value.append(i == accent ? '\u00e9' : (char) ('a' + i));
        }
        out.writeBytes(("{\"s\":\"" + value + "\"}" + (accent % 3 == 0 ? "\r\n" : "\n"))
            .getBytes(StandardCharsets.UTF_8));
      }
    }
    out.writeBytes("{\"s\":\"x\"}".getBytes(StandardCharsets.UTF_8));
    byte[] content = out.toByteArray();

    Result bytes = read(content, false, false);
    Result text = read(content, false, true);

    assertThat(bytes.rows).hasSize(20 * 21 / 2 + 1).isEqualTo(text.rows);
    assertThat(bytes.counters).isEqualTo(text.counters);
  }

  @Test
  void theBytePathTakesCleanLinesAndLeavesTheOthers() {
    List<String> parsedAsText = new ArrayList<>();
    JsonLineParser json = new JsonLineParser(JsonFastPathTest.SCHEMA);
    RecordParser counting = new RecordParser() {
      @Override
      public Parsed parse(String line) {
        parsedAsText.add(line);
        return json.parse(line);
      }

      @Override
      public Object[] readClean(byte[] bytes, int from, int to) {
        return json.readClean(bytes, from, to);
      }
    };
    RowLayout layout = layout(false);
    List<Row> out = new ArrayList<>();
    byte[] content = "{\"s\":\"a\"}\n{\"s\":\"caf\u00e9\"}\n{\"S\":\"a\"}\n{\"s\":\"b\"}\r\n".getBytes(StandardCharsets.UTF_8);
    new TextFileReader(counting, layout, false, false, new FileSourceMetrics()).read(content, URI, out);

    assertThat(parsedAsText).containsExactly("{\"s\":\"caf\u00e9\"}", "{\"S\":\"a\"}");
    assertThat(out).hasSize(4);
  }

  private record Result(List<Row> rows, java.util.Map<String, Long> counters) {}

  /** Reads {@code content}; {@code asText} hides the parser's byte path, so that every line is read as text. */
  private static Result read(byte[] content, boolean rescue, boolean asText) {
    FileSourceOptions.Rescue mode = rescue ? new FileSourceOptions.Rescue(Optional.of("_rescued_data"), true)
        : FileSourceOptions.Rescue.OFF;
    JsonLineParser json = new JsonLineParser(JsonFastPathTest.SCHEMA, mode);
    RecordParser parser = asText ? json::parse : json;
    FileSourceMetrics metrics = new FileSourceMetrics();
    List<Row> out = new ArrayList<>();
    new TextFileReader(parser, layout(rescue), false, false, metrics).read(content, URI, out);
    return new Result(out, metrics.drain());
  }

  private static RowLayout layout(boolean rescue) {
    return new RowLayout(JsonFastPathTest.SCHEMA, false, true, rescue ? Optional.of("_rescued_data") : Optional.empty(),
        RowLayout.CORRUPT_RECORD);
  }
}
