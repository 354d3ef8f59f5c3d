package dev.sluice.table.exceptions;

/** The table needs a reader or writer protocol version or feature that Sluice does not implement. */
public class UnsupportedTableFeatureException extends SluiceTableException {
  public UnsupportedTableFeatureException(String message) {
    super(message);
  }

  public UnsupportedTableFeatureException(String message, Throwable cause) {
    super(message, cause);
  }
}
