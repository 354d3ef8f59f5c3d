package dev.sluice.ingestion.state;

import dev.sluice.ingestion.Location;

/**
 * Creates one query's state store providers with shared resources (for RocksDB: the block cache and write buffer
 * manager that bound the query's native memory). The caller closes it after closing every provider it created.
 */
public interface StateStoreFactory extends AutoCloseable {
  StateStoreType type();

  /**
   * A provider for the partition folder {@code location} (e.g. {@code <checkpoint>/state/0/0}).
   *
   * @throws IllegalArgumentException for a schema with a type the stores can't keep
   */
  StateStoreProvider create(Location location, StateSchema schema);

  @Override
  void close();
}
