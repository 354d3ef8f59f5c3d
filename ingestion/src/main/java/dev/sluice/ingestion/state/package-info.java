/**
 * State stores for stateful operators: the SPI (versioned per batch, load N-1 → write N → commit)
 * and providers ({@link dev.sluice.ingestion.state.StateStores#inMemory}).
 */
package dev.sluice.ingestion.state;
