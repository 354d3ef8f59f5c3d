package dev.sluice.ingestion.state;

/**
 * What a batch did to a state store, for progress ({@code stateOperators}): rows now, rows
 * written and removed in this batch, estimated memory, time to commit.
 */
public record StateStoreMetrics(long numRowsTotal, long numRowsUpdated, long numRowsRemoved, long memoryUsedBytes,
    long commitTimeMs) {}
