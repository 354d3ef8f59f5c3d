package dev.sluice.ingestion.source.internal.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingestion.source.SourceOffset;

/**
 * A position in a table's stream, shaped like Spark's {@code DeltaSourceOffset}: everything up to file
 * {@code index} of {@code reservoirVersion} has been read. When {@code isStartingVersion} is true the
 * files are those of the snapshot at that version (the initial snapshot); otherwise those the commit
 * added. {@code index == -1} ({@link #BASE_INDEX}) means none of the version yet, so a fully read
 * version {@code v} is written as {@code (v + 1, -1, false)}. {@code reservoirId} is the table's id.
 */
record DeltaSourceOffset(String reservoirId, long reservoirVersion, long index, boolean isStartingVersion)
    implements Comparable<DeltaSourceOffset> {
  static final int FORMAT_VERSION = 1;
  static final long BASE_INDEX = -1;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Before the first file of {@code version}'s commit. */
  static DeltaSourceOffset beforeCommit(String reservoirId, long version) {
    return new DeltaSourceOffset(reservoirId, version, BASE_INDEX, false);
  }

  /** Before the first file of the snapshot at {@code version}. */
  static DeltaSourceOffset beforeSnapshot(String reservoirId, long version) {
    return new DeltaSourceOffset(reservoirId, version, BASE_INDEX, true);
  }

  DeltaSourceOffset withIndex(long value) {
    return new DeltaSourceOffset(reservoirId, reservoirVersion, value, isStartingVersion);
  }

  /** Order within one table; a snapshot at v precedes the commit v + 1. */
  @Override
  public int compareTo(DeltaSourceOffset o) {
    int byVersion = Long.compare(reservoirVersion, o.reservoirVersion);
    return byVersion != 0 ? byVersion : Long.compare(index, o.index);
  }

  SourceOffset toSourceOffset() {
    ObjectNode n = JSON.createObjectNode();
    n.put("sourceVersion", FORMAT_VERSION);
    n.put("reservoirId", reservoirId);
    n.put("reservoirVersion", reservoirVersion);
    n.put("index", index);
    n.put("isStartingVersion", isStartingVersion);
    return new SourceOffset(n.toString());
  }

  /**
   * @throws IllegalArgumentException if the JSON is not a delta source offset
   */
  static DeltaSourceOffset parse(SourceOffset offset, String description) {
    JsonNode n;
    try {
      n = JSON.readTree(offset.json());
    } catch (JsonProcessingException e) {
      throw DeltaSourceErrors.badOffset(description, offset.json(), "it is not JSON");
    }
    if (n == null || !n.isObject() || !n.path("reservoirId").isTextual() || !n.path("reservoirVersion").canConvertToLong()
        || !n.path("index").canConvertToLong() || !n.path("isStartingVersion").isBoolean()) {
      throw DeltaSourceErrors.badOffset(description, offset.json(),
          "it lacks reservoirId, reservoirVersion, index or isStartingVersion");
    }
    if (n.path("sourceVersion").asInt(FORMAT_VERSION) > FORMAT_VERSION) {
      throw DeltaSourceErrors.badOffset(description, offset.json(),
          "it was written by a newer Sluice (sourceVersion " + n.path("sourceVersion").asInt() + ")");
    }
    return new DeltaSourceOffset(n.get("reservoirId").asText(), n.get("reservoirVersion").asLong(),
        n.get("index").asLong(), n.get("isStartingVersion").asBoolean());
  }
}
