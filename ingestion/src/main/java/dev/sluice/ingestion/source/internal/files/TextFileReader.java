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
    List<TextLines.Line> lines = TextLines.of(content);
    if (skipHeader && !lines.isEmpty()) {
      parser.header(lines.get(0).text());
    }
    long notKept = 0;
    for (int i = skipHeader ? 1 : 0; i < lines.size(); i++) {
      TextLines.Line line = lines.get(i);
      RecordParser.Parsed parsed;
      if (line.error() != null) {
        metrics.increment(FileSourceMetrics.INVALID_UTF8_LINES);
        parsed = new RecordParser.Parsed(new Object[layout.dataSchema().size()], List.of(line.error()));
      } else if (parser.skip(line.text())) {
        continue;
      } else {
        parsed = parser.parse(line.text());
      }
      if (parsed.errors().isEmpty()) {
        out.add(layout.row(parsed.values(), parsed.rescued(), uri, null, null));
        continue;
      }
      metrics.increment(FileSourceMetrics.MALFORMED_RECORDS);
      if (failFast) {
        throw new MalformedRecordException(uri, i + 1, String.join("; ", parsed.errors()));
      }
      notKept += layout.keepsCorrupt() ? 0 : 1;
      out.add(layout.row(parsed.values(), uri, line.text(), "line " + (i + 1) + ": " + String.join("; ", parsed.errors())));
    }
    if (notKept > 0) {
      metrics.add(FileSourceMetrics.MALFORMED_NOT_KEPT, notKept);
      LOG.warn("{} malformed records of {} became rows with null columns and their raw text was not kept: the"
          + " declared schema has no corrupt-record column. Declare a string column _corrupt_record (or the name in"
          + " option columnNameOfCorruptRecord) and _corrupt_error to keep them, or use mode=FAILFAST", notKept, uri);
    }
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
