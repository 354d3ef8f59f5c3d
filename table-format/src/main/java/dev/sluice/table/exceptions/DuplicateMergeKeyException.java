package dev.sluice.table.exceptions;

/** Several MERGE source rows have the same key and no rule says which one wins. */
public class DuplicateMergeKeyException extends SluiceTableException {
  public DuplicateMergeKeyException(String message) {
    super(message);
  }

  public DuplicateMergeKeyException(String message, Throwable cause) {
    super(message, cause);
  }
}
