/**
 * State store implementations: the in-memory provider (a hash map made durable as delta and
 * snapshot files) and its file format.
 */
package dev.sluice.ingestion.state.internal;
