package dev.sluice.ingestion.state;

/**
 * Creates the versioned stores of one operator partition, kept under the checkpoint's
 * {@code state/<operator>/<partition>/}. A provider instance lives as long as the query run and
 * may cache the latest committed version in memory.
 */
public interface StateStoreProvider extends AutoCloseable {
  /**
   * The store for writing {@code version}, holding the state of {@code version - 1} (empty for version 1).
   *
   * @throws IllegalStateException naming the missing files when {@code version - 1} can't be rebuilt
   */
  StateStore load(long version);

  /**
   * A hint that {@link #load} of {@code version} comes next: a provider may start reading the state of
   * {@code version - 1} on a thread of its own, so that the read overlaps the batch's source read. Does nothing by
   * default; a failure of that read surfaces in {@link #load}.
   */
  default void prepare(long version) {}

  /** Deletes files no longer needed to rebuild versions {@code >= minVersionToKeep}. */
  void purge(long minVersionToKeep);

  @Override
  default void close() {}
}
