package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStoreFactory;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.ingestion.state.StateStoreSettings;
import dev.sluice.ingestion.state.StateStoreType;
import dev.sluice.ingestion.state.StateTimeIndex;

/** The factories behind {@link dev.sluice.ingestion.state.StateStores#factory}. */
public final class StateStoreFactories {
  private StateStoreFactories() {}

  public static StateStoreFactory create(StateStoreSettings settings) {
    return settings.type() == StateStoreType.ROCKSDB ? new RocksDb(settings) : new InMemory(settings);
  }

  private record InMemory(StateStoreSettings settings) implements StateStoreFactory {
    @Override
    public StateStoreType type() {
      return StateStoreType.IN_MEMORY;
    }

    @Override
    public StateStoreProvider create(Location location, StateSchema schema) {
      return InMemoryStateStoreProvider.create(location, schema, settings.snapshotInterval());
    }

    @Override
    public void close() {}
  }

  /** Creates the shared memory on first use, so a query without state allocates nothing native. */
  private static final class RocksDb implements StateStoreFactory {
    private final StateStoreSettings settings;
    private RocksDbMemory memory;

    RocksDb(StateStoreSettings settings) {
      this.settings = settings;
    }

    @Override
    public StateStoreType type() {
      return StateStoreType.ROCKSDB;
    }

    @Override
    public StateStoreProvider create(Location location, StateSchema schema) {
      return create(location, schema, null);
    }

    @Override
    public synchronized StateStoreProvider create(Location location, StateSchema schema, StateTimeIndex timeIndex) {
      if (memory == null) {
        memory = new RocksDbMemory(settings.rocksDbMemoryBytes());
      }
      return new RocksDbStateStoreProvider(location, schema, settings.snapshotInterval(), memory,
          settings.localDir(), timeIndex);
    }

    @Override
    public synchronized void close() {
      if (memory != null) {
        memory.close();
        memory = null;
      }
    }
  }
}
