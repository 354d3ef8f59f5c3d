/**
 * Partition values and paths (Delta's text encoding, Hive-style folders, {@code add.path} URI
 * encoding) and file pruning by partition values and per-file statistics.
 */
package dev.sluice.table.internal.partition;
