/** State store implementations. */
package dev.sluice.ingestion.state.internal;
