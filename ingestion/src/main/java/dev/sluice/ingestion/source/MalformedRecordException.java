package dev.sluice.ingestion.source;

/** A source in {@code FAILFAST} mode met input it cannot read; the message names the file, the line and the error. */
public class MalformedRecordException extends RuntimeException {
  private final String file;
  private final long line;

  public MalformedRecordException(String file, long line, String error) {
    super("Malformed record in " + file + (line > 0 ? " at line " + line : "") + ": " + error
        + ". The source runs with mode=FAILFAST; fix or remove the file, or use mode=PERMISSIVE to keep malformed"
        + " records in the _corrupt_record and _corrupt_error columns");
    this.file = file;
    this.line = line;
  }

  /** The URI of the file. */
  public String file() {
    return file;
  }

  /** The 1-based line number, or 0 when the error concerns the whole file. */
  public long line() {
    return line;
  }
}
