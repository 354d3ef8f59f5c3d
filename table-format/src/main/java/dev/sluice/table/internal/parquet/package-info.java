/** Parquet data files and checkpoints through parquet-avro, read and written via the object store. */
package dev.sluice.table.internal.parquet;
