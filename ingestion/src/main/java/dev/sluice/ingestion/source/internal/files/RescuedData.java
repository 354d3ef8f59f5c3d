package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What one record had that its schema could not hold: fields the schema lacks and (optionally) values
 * of the wrong type, keyed by field path ({@code a.b}, {@code items[0]}), written as one JSON object
 * (Databricks' {@code _rescued_data}). Collected instead of errors, so that the row stays a good row.
 */
final class RescuedData {
  private final boolean typeMismatches;
  private ObjectNode values;

  RescuedData(boolean typeMismatches) {
    this.typeMismatches = typeMismatches;
  }

  /** Keeps a field the schema lacks; a JSON null carries nothing and is left out. */
  void unknown(String path, JsonNode value) {
    if (!value.isNull()) {
      put(path, value);
    }
  }

  /** Keeps a value that doesn't fit its column; false when type mismatches are not rescued (the caller reports it). */
  boolean mismatch(String path, JsonNode value) {
    if (!typeMismatches) {
      return false;
    }
    put(path, value);
    return true;
  }

  private void put(String path, JsonNode value) {
    if (values == null) {
      values = JsonLineParser.MAPPER.createObjectNode();
    }
    values.set(path, value);
  }

  /** The JSON object, or null when nothing was rescued. */
  String json() {
    return values == null ? null : values.toString();
  }
}
