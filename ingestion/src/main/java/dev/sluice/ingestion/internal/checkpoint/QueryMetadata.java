package dev.sluice.ingestion.internal.checkpoint;

import java.util.Map;
import java.util.UUID;

/** The checkpoint's {@code metadata}: the query id (stable across restarts), creation time, and plan facts. */
public record QueryMetadata(UUID id, String createdAt, Map<String, String> properties) {
  public QueryMetadata {
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }
}
