package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.source.MalformedRecordException;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a UTF-8 text file line by line through a {@link RecordParser}. A line that is not valid UTF-8 is malformed
 * (see {@link TextLines}). In PERMISSIVE mode a malformed line becomes a row whose data columns hold what could be
 * read (null where a field failed) plus the raw line and the errors in the corrupt columns the layout has; without
 * any, the row keeps only the data columns and the loss is counted and logged. In FAILFAST mode it throws
 * {@link MalformedRecordException}.
 */
final class TextFileReader {
  private static final Logger LOG = LoggerFactory.getLogger(TextFileReader.class);

  private static final int SHORT_LINE_BYTES = 64;

  private final RecordParser parser;
  private final RowLayout layout;
  private final boolean failFast;
  private final boolean skipHeader;
  private final FileSourceMetrics metrics;

  TextFileReader(RecordParser parser, RowLayout layout, boolean failFast, boolean skipHeader,
      FileSourceMetrics metrics) {
    this.parser = parser;
    this.layout = layout;
    this.failFast = failFast;
    this.skipHeader = skipHeader;
    this.metrics = metrics;
  }

  void read(byte[] content, String uri, List<Row> out) {
    if (out instanceof ArrayList<Row> list) {
      // Growing the list by halves copied it a dozen times per file; a line is rarely shorter than this.
      list.ensureCapacity(out.size() + content.length / SHORT_LINE_BYTES);
    }
    long notKept = skipHeader ? readLines(content, uri, out) : readBytes(content, uri, out);
    if (notKept > 0) {
      metrics.add(FileSourceMetrics.MALFORMED_NOT_KEPT, notKept);
      LOG.warn("{} malformed records of {} became rows with null columns and their raw text was not kept: the"
          + " declared schema has no corrupt-record column. Declare a string column _corrupt_record (or the name in"
          + " option columnNameOfCorruptRecord) and _corrupt_error to keep them, or use mode=FAILFAST", notKept, uri);
    }
  }

  /**
   * Splits the bytes into lines as {@link TextLines#of} does, but hands a line of ASCII bytes that starts a JSON
   * object to the parser's {@link RecordParser#readClean} first: no {@code String} is made of the lines it takes.
   * Every other line is made text and read as by {@link #readLines}, so what a file gives is the same either way.
   */
  private long readBytes(byte[] content, String uri, List<Row> out) {
    try {
      return readEachLine(content, uri, out);
    } finally {
      parser.endOfFile();
    }
  }

  private long readEachLine(byte[] content, String uri, List<Row> out) {
    long notKept = 0;
    int from = TextLines.start(content);
    for (int i = 0; from < content.length; i++) {
      int found = TextLines.lineEnd(content, from);
      boolean ascii = found >= 0;
      int end = ascii ? found : ~found;
      int stop = end > from && content[end - 1] == '\r' ? end - 1 : end;
      Object[] clean = ascii && stop > from && content[from] == '{' ? parser.readClean(content, from, stop) : null;
      if (clean != null) {
        out.add(layout.row(clean, null, uri, null, null));
      } else {
        TextLines.Line line = ascii ? TextLines.ascii(content, from, stop) : TextLines.decode(content, from, stop);
        notKept += readLine(line, i, uri, out);
      }
      from = end + 1;
    }
    return notKept;
  }

  private long readLines(byte[] content, String uri, List<Row> out) {
    List<TextLines.Line> lines = TextLines.of(content);
    if (skipHeader && !lines.isEmpty()) {
      parser.header(lines.get(0).text());
    }
    long notKept = 0;
    for (int i = skipHeader ? 1 : 0; i < lines.size(); i++) {
      notKept += readLine(lines.get(i), i, uri, out);
    }
    return notKept;
  }

  /** Reads the line of index {@code i}; 1 if it was malformed and its raw text is not kept, else 0. */
  private long readLine(TextLines.Line line, int i, String uri, List<Row> out) {
    RecordParser.Parsed parsed;
    if (line.error() != null) {
      metrics.increment(FileSourceMetrics.INVALID_UTF8_LINES);
      parsed = new RecordParser.Parsed(new Object[layout.dataSchema().size()], List.of(line.error()));
    } else if (parser.skip(line.text())) {
      return 0;
    } else {
      parsed = parser.parse(line.text());
    }
    if (parsed.errors().isEmpty()) {
      out.add(layout.row(parsed.values(), parsed.rescued(), uri, null, null));
      return 0;
    }
    metrics.increment(FileSourceMetrics.MALFORMED_RECORDS);
    if (failFast) {
      throw new MalformedRecordException(uri, i + 1, String.join("; ", parsed.errors()));
    }
    out.add(layout.row(parsed.values(), uri, line.text(), "line " + (i + 1) + ": " + String.join("; ", parsed.errors())));
    return layout.keepsCorrupt() ? 0 : 1;
  }

  /** The valid lines of a file (for schema inference, which need not see lines that are not UTF-8). */
  static List<String> lines(byte[] content) {
    List<String> out = new ArrayList<>();
    for (TextLines.Line l : TextLines.of(content)) {
      if (l.error() == null) {
        out.add(l.text());
      }
    }
    return out;
  }
}
