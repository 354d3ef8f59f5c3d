/**
 * Arbitrary stateful processing, with Spark's names and semantics: {@link dev.sluice.ingestion.stateful.GroupState}
 * for {@code mapGroupsWithState} / {@code flatMapGroupsWithState}, and {@link dev.sluice.ingestion.stateful.StatefulProcessor}
 * for Spark 4's {@code transformWithState} (value, list and map state with TTL, timers, schema evolution).
 * User types cross into state through an {@link dev.sluice.ingestion.stateful.Encoder}.
 */
package dev.sluice.ingestion.stateful;
