/** Streaming sources: the SPI, offsets and read limits; built-in formats live in internal packages. */
package dev.sluice.ingestion.source;
