package dev.sluice.table.exceptions;

/** A concurrent commit carried a {@code txn} for an application id this transaction depends on (two instances of one writer). */
public class ConcurrentTransactionException extends ConcurrentModificationException {
  public ConcurrentTransactionException(String message) {
    super(message);
  }
}
