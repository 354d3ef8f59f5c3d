/**
 * Silver layer: casts, expectations, deduplication, MERGE by key (SCD1/SCD2). The entry point is
 * {@link dev.sluice.silver.SilverPipeline#start}; an expectation with action {@code fail} stops the query with
 * an {@link dev.sluice.silver.ExpectationFailedException}. Choices worth knowing: an expectation or filter
 * condition that evaluates to NULL counts as broken (filtered); {@code delete_when} NULL counts as false; a
 * delete leaves a tombstone ({@link dev.sluice.silver.Tombstones}) for {@code tombstone_retention}; ties on
 * {@code sequence_by} follow one rule ({@link dev.sluice.silver.VersionOrder}); rows with a null merge key or
 * sequence value are quarantined; SCD 2 keeps every version, late ones included, as history rows.
 */
package dev.sluice.silver;
