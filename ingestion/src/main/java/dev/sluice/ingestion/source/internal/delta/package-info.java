/** The {@code delta} streaming source: another table's commits, or its change data feed, as micro-batches. */
package dev.sluice.ingestion.source.internal.delta;
