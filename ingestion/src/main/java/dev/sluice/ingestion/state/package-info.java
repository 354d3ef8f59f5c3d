/**
 * State stores for stateful operators: the SPI (versioned per batch, load N-1 → write N → commit)
 * and providers.
 */
package dev.sluice.ingestion.state;
