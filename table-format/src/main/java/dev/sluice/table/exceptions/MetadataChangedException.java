package dev.sluice.table.exceptions;

/** A concurrent commit changed the table's metadata (schema, partitioning or properties). */
public class MetadataChangedException extends ConcurrentModificationException {
  public MetadataChangedException(String message) {
    super(message);
  }
}
