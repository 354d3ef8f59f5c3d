package dev.sluice.ingestion;

/** A query's current activity, as Spark's {@code StreamingQueryStatus}. */
public record QueryStatus(String message, boolean isDataAvailable, boolean isTriggerActive) {}
