package dev.sluice.table.exceptions;

/** An operation the table does not allow (e.g. a delete on an append-only table). */
public class InvalidOperationException extends SluiceTableException {
  public InvalidOperationException(String message) {
    super(message);
  }

  public InvalidOperationException(String message, Throwable cause) {
    super(message, cause);
  }
}
