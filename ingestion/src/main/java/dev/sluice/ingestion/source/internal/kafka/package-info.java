/** The {@code kafka} source: partition offsets kept in the query's checkpoint, never in consumer groups. */
package dev.sluice.ingestion.source.internal.kafka;
