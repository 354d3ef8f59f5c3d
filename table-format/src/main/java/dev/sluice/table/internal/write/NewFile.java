package dev.sluice.table.internal.write;

import dev.sluice.table.internal.actions.AddFile;

/** A data file written for a transaction: its {@code add} action and its object key. */
public record NewFile(AddFile add, String key, long numRecords) {}
