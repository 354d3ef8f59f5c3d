package dev.sluice.ingestion.state;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.internal.InMemoryStateStoreProvider;
import dev.sluice.ingestion.state.internal.StateStoreFactories;

/** Factories for the built-in state store providers. */
public final class StateStores {
  private StateStores() {}

  /**
   * The in-memory provider: the state lives in a hash map; each commit writes
   * {@code <location>/<version>.delta} (the changes), every {@code snapshotInterval} versions a
   * {@code <version>.snapshot} (the whole state); loading = the latest snapshot at or below
   * {@code version - 1} plus the later deltas; {@link StateStoreProvider#purge purge(minVersionToKeep)}
   * deletes the files no longer needed to rebuild versions {@code >= minVersionToKeep}. Only list,
   * read, overwrite and delete are used, so any {@link dev.sluice.table.storage.ObjectStore} (S3
   * included) works.
   *
   * @param location the partition folder, e.g. {@code <checkpoint>/state/0/0}
   * @param snapshotInterval a snapshot is written when the committed version is a multiple of it (≥ 1)
   * @throws IllegalArgumentException for an interval below 1 or a schema with timestamp_ntz
   */
  public static StateStoreProvider inMemory(Location location, StateSchema schema, int snapshotInterval) {
    return InMemoryStateStoreProvider.create(location, schema, snapshotInterval);
  }

  /**
   * The providers of one query as {@code settings} say. RocksDB: each partition keeps its state in a local
   * RocksDB under {@code settings.localDir()}; each commit uploads {@code <location>/<version>.changelog}, every
   * {@code snapshotInterval} versions the SST files (under {@code <location>/SSTs/}, each uploaded once) and then
   * {@code <location>/<version>.zip} listing them; a load rebuilds from the newest snapshot plus the later
   * changelogs when the local copy is not the version just committed (a restart, a fresh machine). The
   * factory's stores share {@code settings.rocksDbMemoryBytes()} of native memory.
   */
  public static StateStoreFactory factory(StateStoreSettings settings) {
    return StateStoreFactories.create(settings);
  }
}
