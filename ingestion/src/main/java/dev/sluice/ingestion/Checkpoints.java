package dev.sluice.ingestion;

/** Facts about a query checkpoint location that the layers need before starting a query on it. */
public final class Checkpoints {
  private Checkpoints() {}

  /**
   * True when no query has started on {@code checkpoint} yet (no {@code metadata}): it is new, or was deleted to
   * reprocess, so its query will read its sources from the beginning.
   */
  public static boolean isUnused(Location checkpoint) {
    return checkpoint.store().status(checkpoint.resolve("metadata").key()).isEmpty();
  }
}
