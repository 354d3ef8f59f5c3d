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

  /**
   * The values of a line given as valid UTF-8 bytes ({@code bytes[from..to)}) when the parser can read it without
   * any judgement (no error, nothing rescued), else null and the line is {@link #parse parsed} as text. Saves
   * making a {@code String} of every line.
   */
  default Object[] readClean(byte[] bytes, int from, int to) {
    return null;
  }

  /** True for lines that hold no record (blank lines), which are skipped. */
  default boolean skip(String line) {
    return line.isBlank();
  }

  /** Told when a file's bytes are read, so that what {@link #readClean} kept for the file can go. */
  default void endOfFile() {}

  /** Told the file's header line, when the format has one and it is skipped. */
  default void header(String line) {}
}
