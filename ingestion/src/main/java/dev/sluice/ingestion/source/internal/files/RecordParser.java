package dev.sluice.ingestion.source.internal.files;

import java.util.List;

/** Parses one line of a text format into the values of the data schema; bad input is reported, never thrown. */
interface RecordParser {
  /**
   * The values (null where a field could not be read), what was wrong, if anything, and the rescued data (a JSON
   * object of what didn't fit the schema, or null).
   */
  record Parsed(Object[] values, List<String> errors, String rescued) {
    Parsed(Object[] values, List<String> errors) {
      this(values, errors, null);
    }
  }

  Parsed parse(String line);

  /** True for lines that hold no record (blank lines), which are skipped. */
  default boolean skip(String line) {
    return line.isBlank();
  }

  /** Told the file's header line, when the format has one and it is skipped. */
  default void header(String line) {}
}
