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

  /**
   * Like {@link #create(Location, StateSchema)} for an operator that evicts by event time: the provider may keep
   * its entries ordered by {@code timeIndex} so that {@link StateStore#removeUpTo} with it scans only the expired
   * entries. The index is not part of the checkpoint's contract: a provider rebuilds it when its files lack it.
   */
  default StateStoreProvider create(Location location, StateSchema schema, StateTimeIndex timeIndex) {
    return create(location, schema);
  }

  @Override
  void close();
}
