package dev.sluice.ingestion.state;

import dev.sluice.table.types.StructType;

/** The shape of a store's keys and values; part of the checkpoint's compatibility fingerprint. */
public record StateSchema(StructType keySchema, StructType valueSchema) {}
