package dev.sluice.table.exceptions;

/**
 * Another writer committed something that conflicts with this transaction under Delta's conflict
 * rules. Retrying the whole operation from a fresh snapshot is safe.
 */
public abstract class ConcurrentModificationException extends SluiceTableException {
  protected ConcurrentModificationException(String message) {
    super(message);
  }
}
