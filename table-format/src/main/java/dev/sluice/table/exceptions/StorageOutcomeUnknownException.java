package dev.sluice.table.exceptions;

/** A write may or may not have taken effect (a timeout after the request was sent): read back before retrying. */
public class StorageOutcomeUnknownException extends StorageException {
  public StorageOutcomeUnknownException(String message) {
    super(message);
  }

  public StorageOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
