package dev.sluice.ingestion;

import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.storage.StoragePaths;

/** A place in object storage: a store and a key prefix in it (a table root, a folder of files, a checkpoint). */
public record Location(ObjectStore store, String key) {
  /** A location below this one. */
  public Location resolve(String child) {
    return new Location(store, StoragePaths.join(key, child));
  }

  @Override
  public String toString() {
    return store.uriOf(key).toString();
  }
}
