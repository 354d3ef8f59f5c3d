package dev.sluice.ingestion.state;

import java.util.Locale;

/** The built-in state store providers, by the name used in options ({@code stateStore}) and YAML ({@code state_store}). */
public enum StateStoreType {
  /** Every key in a JVM hash map; delta and snapshot files in the checkpoint (Spark's HDFS-backed provider). */
  IN_MEMORY("inmemory"),
  /** Keys in a local RocksDB with bounded native memory; changelog and SST snapshots in the checkpoint. */
  ROCKSDB("rocksdb");

  private final String optionName;

  StateStoreType(String optionName) {
    this.optionName = optionName;
  }

  /** {@code inmemory} or {@code rocksdb}: what the checkpoint records and options accept. */
  public String optionName() {
    return optionName;
  }

  /**
   * Parses {@code inmemory} (also {@code in_memory}, {@code in-memory}, {@code memory}) or {@code rocksdb}, any case.
   *
   * @param where what set the value, for the message (e.g. {@code option stateStore})
   * @throws IllegalArgumentException naming the value and the accepted ones
   */
  public static StateStoreType of(String value, String where) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    return switch (v) {
      case "inmemory", "memory", "hdfs" -> IN_MEMORY;
      case "rocksdb" -> ROCKSDB;
      default -> throw new IllegalArgumentException("Unknown state store '" + value + "' (" + where
          + "); use inmemory (the default: state in the JVM heap) or rocksdb (large state, bounded heap)");
    };
  }

  @Override
  public String toString() {
    return optionName;
  }
}
