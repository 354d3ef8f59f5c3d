package dev.sluice.table.exceptions;

/** A create-if-absent found the object already there (for a commit: another writer won that version). */
public class ObjectAlreadyExistsException extends StorageException {
  public ObjectAlreadyExistsException(String message) {
    super(message);
  }

  public ObjectAlreadyExistsException(String message, Throwable cause) {
    super(message, cause);
  }
}
