package dev.sluice.table.exceptions;

/** A concurrent commit added files that this transaction should have read (they match its read predicates). */
public class ConcurrentAppendException extends ConcurrentModificationException {
  public ConcurrentAppendException(String message) {
    super(message);
  }
}
