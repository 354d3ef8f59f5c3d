package dev.sluice.table.internal;

import dev.sluice.table.data.Row;

/** A row of a data file and its row index there (its position in the Parquet file, from 0). */
public record IndexedRow(long index, Row row) {}
