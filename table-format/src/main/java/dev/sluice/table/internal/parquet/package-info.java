/**
 * Parquet data files (written straight from rows by {@link dev.sluice.table.internal.parquet.ColumnFileWriter}) and
 * checkpoints (through parquet-avro), read and written via the object store.
 */
package dev.sluice.table.internal.parquet;
