package dev.sluice.ingestion.source.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.ingestion.source.SourceOffset;
import java.io.IOException;
import java.util.Optional;

/** Offsets that hold one whole number, such as {@code {"logOffset":12}} or {@code {"value":500}}. */
public final class OffsetJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private OffsetJson() {}

  public static SourceOffset of(String field, long value) {
    return new SourceOffset("{\"" + field + "\":" + value + "}");
  }

  /**
   * The number in {@code offset}.
   *
   * @throws IllegalArgumentException if the offset is not of the form {@code {"field":N}}
   */
  public static long value(SourceOffset offset, String field) {
    JsonNode node;
    try {
      node = MAPPER.readTree(offset.json()).get(field);
    } catch (IOException e) {
      node = null;
    }
    if (node == null || !node.canConvertToLong() || !node.isIntegralNumber()) {
      throw new IllegalArgumentException("Offset " + offset.json() + " is not an offset of this source: expected {\""
          + field + "\":N}; the checkpoint was written by a different source, so start the query with a new checkpoint");
    }
    return node.longValue();
  }

  /** The number in {@code offset}, or {@code none} when there is no offset. */
  public static long value(Optional<SourceOffset> offset, String field, long none) {
    return offset.map(o -> value(o, field)).orElse(none);
  }
}
