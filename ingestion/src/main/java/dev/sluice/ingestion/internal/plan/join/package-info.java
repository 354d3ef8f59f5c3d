/**
 * Stream-static joins: a stream joined by key to a Delta table or to data files, re-read per batch when
 * asked; created from a {@link dev.sluice.ingestion.internal.plan.join.StaticJoinSpec}.
 */
package dev.sluice.ingestion.internal.plan.join;
