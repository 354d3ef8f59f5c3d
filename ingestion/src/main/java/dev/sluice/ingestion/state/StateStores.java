package dev.sluice.ingestion.state;

import dev.sluice.ingestion.Location;

/** Factories for the built-in state store providers. */
public final class StateStores {
  private StateStores() {}

  /**
   * The in-memory provider: the state lives in a hash map; each commit writes
   * {@code <location>/<version>.delta} (the changes), every {@code snapshotInterval} versions a
   * {@code <version>.snapshot} (the whole state); loading = latest snapshot + later deltas. Files of
   * versions older than needed for the last {@code minVersionsToRetain} are deleted by {@link StateStoreProvider#purge}.
   *
   * @param location the partition folder, e.g. {@code <checkpoint>/state/0/0}
   */
  public static StateStoreProvider inMemory(Location location, StateSchema schema, int snapshotInterval) {
    return dev.sluice.ingestion.state.internal.InMemoryStateStoreProvider.create(location, schema, snapshotInterval);
  }
}
