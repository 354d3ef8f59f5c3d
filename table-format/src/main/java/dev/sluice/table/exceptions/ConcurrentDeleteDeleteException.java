package dev.sluice.table.exceptions;

/** A concurrent commit removed a file that this transaction also removes. */
public class ConcurrentDeleteDeleteException extends ConcurrentModificationException {
  public ConcurrentDeleteDeleteException(String message) {
    super(message);
  }
}
