package dev.sluice.config;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code state_store}: where stateful pipelines (silver dedup, gold aggregates) keep their state: {@code in_memory}
 * (the default) or {@code rocksdb}, written as the provider alone or as
 * {@code {provider: rocksdb, memory: 128m, local_dir: /mnt/ssd/sluice-state}}.
 *
 * @param provider {@code inmemory} or {@code rocksdb} (the engine's option value)
 * @param memory RocksDB's native memory per query, as a size ({@code 64m}); empty for the engine's default
 * @param localDir RocksDB's local working folder; empty for the engine's default
 */
public record StateStoreConfig(String provider, Optional<String> memory, Optional<String> localDir) {
  public static final String IN_MEMORY = "inmemory";
  public static final String ROCKSDB = "rocksdb";

  public StateStoreConfig {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(localDir, "localDir");
  }

  /** The in-memory provider with the engine's defaults. */
  public static StateStoreConfig inMemory() {
    return new StateStoreConfig(IN_MEMORY, Optional.empty(), Optional.empty());
  }

  /** The engine's writeStream options that select this store ({@code stateStore}, …). */
  public java.util.Map<String, String> options() {
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    out.put("stateStore", provider);
    memory.ifPresent(m -> out.put("stateStore.rocksdb.memory", m));
    localDir.ifPresent(d -> out.put("stateStore.localDir", d));
    return out;
  }
}
