package dev.sluice.table.exceptions;

/**
 * Base of every exception the table format throws. Unchecked; a subclass exists only where callers
 * react differently. Messages state the problem, its cause and the fix.
 */
public class SluiceTableException extends RuntimeException {
  public SluiceTableException(String message) {
    super(message);
  }

  public SluiceTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
