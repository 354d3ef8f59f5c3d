/** Built-in sources ({@code rate}, {@code memory}) and helpers shared by source implementations. */
package dev.sluice.ingestion.source.internal;
