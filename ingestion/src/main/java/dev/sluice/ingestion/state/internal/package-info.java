/**
 * State store implementations: the in-memory provider (a hash map made durable as delta and snapshot files), the
 * RocksDB provider (a local RocksDB made durable as changelog files and deduplicated SST snapshots), their shared
 * file format, and the checkpoint's operator metadata.
 */
package dev.sluice.ingestion.state.internal;
