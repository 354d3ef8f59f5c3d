package dev.sluice.ingestion.source.internal.files;

import java.util.List;

/** Parses one line of a text format into the values of the data schema; bad input is reported, never thrown. */
interface RecordParser {
  /** The values (null where a field could not be read) and what was wrong, if anything. */
  record Parsed(Object[] values, List<String> errors) {}

  Parsed parse(String line);

  /** True for lines that hold no record (blank lines), which are skipped. */
  default boolean skip(String line) {
    return line.isBlank();
  }
}
