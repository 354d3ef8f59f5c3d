package dev.sluice.ingestion.source;

import java.util.Objects;

/**
 * A source's position, serialised as JSON (one line, no newline) so that it can be written to the
 * checkpoint's {@code offsets/N} and read back after a restart. Sources define what the JSON holds.
 */
public record SourceOffset(String json) {
  public SourceOffset {
    Objects.requireNonNull(json, "json");
    if (json.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("An offset must be one line of JSON: " + json);
    }
  }

  @Override
  public String toString() {
    return json;
  }
}
