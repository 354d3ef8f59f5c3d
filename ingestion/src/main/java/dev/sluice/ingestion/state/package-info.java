/**
 * State stores for stateful operators: the SPI (versioned per batch, load N-1 → write N → commit), the
 * providers ({@link dev.sluice.ingestion.state.StateStores#inMemory} and, by
 * {@link dev.sluice.ingestion.state.StateStoreSettings}, {@link dev.sluice.ingestion.state.StateStores#factory}
 * for in-memory or RocksDB), and what the checkpoint records about each operator
 * ({@link dev.sluice.ingestion.state.StateOperatorMetadata}).
 */
package dev.sluice.ingestion.state;
