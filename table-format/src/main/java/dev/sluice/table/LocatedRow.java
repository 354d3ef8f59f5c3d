package dev.sluice.table;

import dev.sluice.table.data.Row;

/**
 * A row of a scan with where it is stored: the data file (its path as the log names it, {@link DataFile#logPath()})
 * and its row index there (its position in the Parquet file, from 0; what a deletion vector names).
 */
public record LocatedRow(String file, long rowIndex, Row row) {}
