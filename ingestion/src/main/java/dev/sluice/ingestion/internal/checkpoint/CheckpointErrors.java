package dev.sluice.ingestion.internal.checkpoint;

/** The messages of a query checkpoint whose files contradict each other: what is missing, why it matters, the fix. */
public final class CheckpointErrors {
  private CheckpointErrors() {}

  /**
   * A file of the write-ahead protocol is missing while later state exists, e.g. {@code offsets/5} deleted by
   * hand while {@code commits/5} is there.
   *
   * @param missing the missing file relative to the checkpoint, e.g. {@code offsets/5}
   * @param evidence what exists that needs it, e.g. {@code commits/5 exists}
   */
  public static IllegalStateException damaged(Object root, String missing, String evidence, String consequence) {
    return new IllegalStateException("The checkpoint " + root + " is damaged: " + missing + " is missing, but "
        + evidence + ". " + consequence + " Fix: restore " + missing + " (e.g. from a backup), or reset the"
        + " checkpoint (delete the folder " + root + ") to reprocess from scratch; the sinks skip what the old"
        + " checkpoint wrote, so nothing is doubled.");
  }
}
