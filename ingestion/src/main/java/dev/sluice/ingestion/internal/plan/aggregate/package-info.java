/**
 * Streaming aggregation ({@code groupBy(window(..), keys).agg(..)}) as a stateful plan step with Spark
 * Structured Streaming's semantics: start at {@link dev.sluice.ingestion.internal.plan.aggregate.AggregationSpec}.
 */
package dev.sluice.ingestion.internal.plan.aggregate;
