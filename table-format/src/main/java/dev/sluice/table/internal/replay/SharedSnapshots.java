package dev.sluice.table.internal.replay;

import dev.sluice.table.storage.ObjectStore;
import java.lang.ref.SoftReference;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The newest state read of each table, shared by every table object of one store in this process (Delta's
 * {@code DeltaLog.forTable} cache): a run opens the same table in several places (the bronze writer, the silver
 * query's source, its backlog and its start-up checks), and each would otherwise replay the log from its checkpoint.
 * A state found here is only a base: the caller lists the log and applies the commits since, so a stale entry is
 * never served as the latest. Entries are soft (the collector may drop them) and at most {@link #TABLES} per store.
 */
public final class SharedSnapshots {
  private static final int TABLES = 64;
  private static final Map<ObjectStore, Map<String, SoftReference<SnapshotState>>> STATES = new WeakHashMap<>();

  private SharedSnapshots() {}

  /** The newest state of {@code tablePath} in {@code store} that this process has read, or null. */
  public static synchronized SnapshotState get(ObjectStore store, String tablePath) {
    Map<String, SoftReference<SnapshotState>> tables = STATES.get(store);
    SoftReference<SnapshotState> ref = tables == null ? null : tables.get(tablePath);
    return ref == null ? null : ref.get();
  }

  /** Remembers {@code state} unless a newer version of the table is remembered already. */
  public static synchronized void offer(ObjectStore store, String tablePath, SnapshotState state) {
    Map<String, SoftReference<SnapshotState>> tables = STATES.computeIfAbsent(store, s -> new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, SoftReference<SnapshotState>> eldest) {
        return size() > TABLES;
      }
    });
    SoftReference<SnapshotState> ref = tables.get(tablePath);
    SnapshotState known = ref == null ? null : ref.get();
    if (known == null || known.version() <= state.version()) {
      tables.put(tablePath, new SoftReference<>(state));
    }
  }
}
