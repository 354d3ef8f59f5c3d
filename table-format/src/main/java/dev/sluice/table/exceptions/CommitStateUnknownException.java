package dev.sluice.table.exceptions;

/** A commit's outcome could not be determined; data files were kept in case it succeeded. Do not clean up; re-read the table. */
public class CommitStateUnknownException extends SluiceTableException {
  public CommitStateUnknownException(String message) {
    super(message);
  }

  public CommitStateUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
