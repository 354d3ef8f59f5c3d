package dev.sluice.table.exceptions;

/** An object store call failed; the message names the operation and the object. */
public class StorageException extends SluiceTableException {
  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
