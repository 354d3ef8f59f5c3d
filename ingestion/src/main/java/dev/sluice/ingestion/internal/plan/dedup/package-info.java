/**
 * Streaming deduplication ({@code dropDuplicates}, {@code dropDuplicatesWithinWatermark}) as stateful plan
 * steps, created from a {@link dev.sluice.ingestion.internal.plan.dedup.DedupSpec}.
 */
package dev.sluice.ingestion.internal.plan.dedup;
