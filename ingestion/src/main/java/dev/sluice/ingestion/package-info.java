/** The streaming engine: sources, offsets, the micro-batch runner, checkpoints, state, sinks. */
package dev.sluice.ingestion;
