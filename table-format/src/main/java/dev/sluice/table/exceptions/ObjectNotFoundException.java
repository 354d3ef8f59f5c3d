package dev.sluice.table.exceptions;

/** The object to read does not exist. */
public class ObjectNotFoundException extends StorageException {
  public ObjectNotFoundException(String message) {
    super(message);
  }

  public ObjectNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
