package dev.sluice.table.exceptions;

/** The table's log is corrupt or incomplete (a missing version, no protocol or metadata, an unreadable file). */
public class InvalidTableException extends SluiceTableException {
  public InvalidTableException(String message) {
    super(message);
  }

  public InvalidTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
