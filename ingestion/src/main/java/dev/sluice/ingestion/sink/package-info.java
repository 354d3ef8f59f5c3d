/** Streaming sinks. */
package dev.sluice.ingestion.sink;
