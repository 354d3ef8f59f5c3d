package dev.sluice.table.exceptions;

/** A create found a table already at the path. */
public class TableAlreadyExistsException extends SluiceTableException {
  public TableAlreadyExistsException(String message) {
    super(message);
  }

  public TableAlreadyExistsException(String message, Throwable cause) {
    super(message, cause);
  }
}
