package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.source.MalformedRecordException;
import dev.sluice.table.data.Row;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads a UTF-8 text file line by line through a {@link RecordParser}. In PERMISSIVE mode a bad line
 * becomes a row whose data columns hold what could be read (null where a field failed) plus the raw
 * line and the errors; in FAILFAST mode it throws {@link MalformedRecordException}.
 */
final class TextFileReader {
  private final RecordParser parser;
  private final RowLayout layout;
  private final boolean failFast;
  private final boolean skipHeader;

  TextFileReader(RecordParser parser, RowLayout layout, boolean failFast, boolean skipHeader) {
    this.parser = parser;
    this.layout = layout;
    this.failFast = failFast;
    this.skipHeader = skipHeader;
  }

  void read(byte[] content, String uri, List<Row> out) {
    List<String> lines = lines(content);
    if (skipHeader && !lines.isEmpty()) {
      parser.header(lines.get(0));
    }
    for (int i = skipHeader ? 1 : 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (parser.skip(line)) {
        continue;
      }
      RecordParser.Parsed parsed = parser.parse(line);
      if (parsed.errors().isEmpty()) {
        out.add(layout.row(parsed.values(), parsed.rescued(), uri, null, null));
      } else if (failFast) {
        throw new MalformedRecordException(uri, i + 1, String.join("; ", parsed.errors()));
      } else {
        out.add(layout.row(parsed.values(), uri, line, "line " + (i + 1) + ": " + String.join("; ", parsed.errors())));
      }
    }
  }

  /** The lines of a file without their terminators ({@code \n} or {@code \r\n}); no empty last line. */
  static List<String> lines(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    // A plain scan: a regex split was the most expensive step of reading JSON lines.
    List<String> lines = new java.util.ArrayList<>();
    int start = 0;
    int n = text.length();
    while (start < n) {
      int nl = text.indexOf('\n', start);
      int end = nl < 0 ? n : nl;
      int stop = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
      lines.add(text.substring(start, stop));
      if (nl < 0) {
        break;
      }
      start = nl + 1;
    }
    return lines;
  }
}
