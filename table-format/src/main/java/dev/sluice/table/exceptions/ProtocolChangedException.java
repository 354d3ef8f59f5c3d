package dev.sluice.table.exceptions;

/** A concurrent commit changed the table's protocol, or created the table first. */
public class ProtocolChangedException extends ConcurrentModificationException {
  public ProtocolChangedException(String message) {
    super(message);
  }
}
