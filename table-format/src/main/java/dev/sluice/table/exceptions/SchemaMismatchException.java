package dev.sluice.table.exceptions;

/** Data does not fit the table's schema; the message names the column and both types. */
public class SchemaMismatchException extends SluiceTableException {
  public SchemaMismatchException(String message) {
    super(message);
  }

  public SchemaMismatchException(String message, Throwable cause) {
    super(message, cause);
  }
}
