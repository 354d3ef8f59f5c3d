package dev.sluice.table.exceptions;

/** No Delta table at the path: there is no {@code _delta_log} with a commit. */
public class TableNotFoundException extends SluiceTableException {
  public TableNotFoundException(String message) {
    super(message);
  }

  public TableNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
