package dev.sluice.table.exceptions;

/** A concurrent commit removed a file that this transaction read. */
public class ConcurrentDeleteReadException extends ConcurrentModificationException {
  public ConcurrentDeleteReadException(String message) {
    super(message);
  }
}
