package dev.sluice.ingestion.state;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a query keeps its state: the provider, and for RocksDB the native memory shared by all of the query's
 * stores (block cache with the write buffers charged to it) and the local folder of its working copies.
 *
 * @param type the provider
 * @param rocksDbMemoryBytes RocksDB's bound on native memory per query (default {@value #DEFAULT_ROCKSDB_MEMORY_MB} MB)
 * @param localDir where RocksDB keeps its working copy; rebuilt from the checkpoint when empty (default
 *     {@code <java.io.tmpdir>/sluice-state})
 * @param snapshotInterval a snapshot every this many versions (default {@value #DEFAULT_SNAPSHOT_INTERVAL})
 */
public record StateStoreSettings(StateStoreType type, long rocksDbMemoryBytes, Path localDir, int snapshotInterval) {
  public static final int DEFAULT_ROCKSDB_MEMORY_MB = 64;
  public static final int DEFAULT_SNAPSHOT_INTERVAL = 10;

  public StateStoreSettings {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(localDir, "localDir");
    if (rocksDbMemoryBytes < 4L << 20) {
      throw new IllegalArgumentException("The RocksDB state memory must be at least 4 MB, not " + rocksDbMemoryBytes
          + " bytes (option stateStore.rocksdb.memory)");
    }
    if (snapshotInterval < 1) {
      throw new IllegalArgumentException("The state snapshot interval must be at least 1 version, not "
          + snapshotInterval);
    }
  }

  /** The in-memory provider with the default settings. */
  public static StateStoreSettings defaults() {
    return of(StateStoreType.IN_MEMORY);
  }

  /** {@code type} with the default memory, local folder and snapshot interval. */
  public static StateStoreSettings of(StateStoreType type) {
    return new StateStoreSettings(type, DEFAULT_ROCKSDB_MEMORY_MB << 20,
        Path.of(System.getProperty("java.io.tmpdir"), "sluice-state"), DEFAULT_SNAPSHOT_INTERVAL);
  }

  /**
   * These settings changed by writeStream options (keys in any case): {@code stateStore},
   * {@code stateStore.rocksdb.memory}, {@code stateStore.localDir}, {@code stateStore.snapshotInterval}; other keys
   * are ignored.
   *
   * @throws IllegalArgumentException naming the option whose value is not valid
   */
  public StateStoreSettings withOptions(java.util.Map<String, String> options) {
    StateStoreSettings out = this;
    for (java.util.Map.Entry<String, String> e : options.entrySet()) {
      String v = e.getValue();
      switch (e.getKey().toLowerCase(java.util.Locale.ROOT)) {
        case "statestore" -> out = out.withType(StateStoreType.of(v, "option stateStore"));
        case "statestore.rocksdb.memory" -> out = out.withRocksDbMemoryBytes(
            dev.sluice.ingestion.internal.runner.ByteSizes.parse("stateStore.rocksdb.memory", v));
        case "statestore.localdir" -> out = out.withLocalDir(Path.of(v));
        case "statestore.snapshotinterval" -> {
          try {
            out = out.withSnapshotInterval(Integer.parseInt(v.trim()));
          } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("Option stateStore.snapshotInterval must be a whole number of"
                + " versions (at least 1), got '" + v + "'");
          }
        }
        default -> { }
      }
    }
    return out;
  }

  public StateStoreSettings withType(StateStoreType value) {
    return new StateStoreSettings(value, rocksDbMemoryBytes, localDir, snapshotInterval);
  }

  public StateStoreSettings withRocksDbMemoryBytes(long value) {
    return new StateStoreSettings(type, value, localDir, snapshotInterval);
  }

  public StateStoreSettings withLocalDir(Path value) {
    return new StateStoreSettings(type, rocksDbMemoryBytes, value, snapshotInterval);
  }

  public StateStoreSettings withSnapshotInterval(int value) {
    return new StateStoreSettings(type, rocksDbMemoryBytes, localDir, value);
  }
}
