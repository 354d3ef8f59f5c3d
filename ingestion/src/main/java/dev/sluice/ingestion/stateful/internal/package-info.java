/** Encoders of user types into state rows. */
package dev.sluice.ingestion.stateful.internal;
