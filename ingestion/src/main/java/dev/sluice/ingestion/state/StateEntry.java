package dev.sluice.ingestion.state;

import dev.sluice.table.data.Row;

/** One key and its value in a state store. */
public record StateEntry(Row key, Row value) {}
