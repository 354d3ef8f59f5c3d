/**
 * Arbitrary stateful operators: {@code mapGroupsWithState} / {@code flatMapGroupsWithState} ({@link
 * dev.sluice.ingestion.internal.plan.arbitrary.GroupsWithState}) and {@code transformWithState} ({@link
 * dev.sluice.ingestion.internal.plan.arbitrary.TransformWithState}), their analyzer rules and state layouts.
 */
package dev.sluice.ingestion.internal.plan.arbitrary;
