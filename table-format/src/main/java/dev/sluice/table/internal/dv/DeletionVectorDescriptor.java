package dev.sluice.table.internal.dv;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.exceptions.InvalidTableException;
import java.io.IOException;
import java.util.UUID;

/**
 * The {@code deletionVector} of an {@code add} or {@code remove} (PROTOCOL.md, "Deletion Vector Descriptor
 * Schema"): where the bitmap of deleted row indexes is ({@code u} a file named from a UUID under the table,
 * with an optional folder prefix; {@code p} an absolute path; {@code i} inline in the log) and how many rows
 * it deletes.
 */
public record DeletionVectorDescriptor(String storageType, String pathOrInlineDv, Integer offset, int sizeInBytes,
    long cardinality) {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int UUID_CHARS = 20;

  /**
   * The JSON of a {@code u} descriptor: the DV at {@code offset} of the file {@code deletion_vector_<id>.bin} in the
   * table root, deleting {@code rows}.
   */
  public static String fileJson(UUID id, int offset, int sizeInBytes, DeletedRows rows) {
    var n = MAPPER.createObjectNode();
    n.put("storageType", "u");
    n.put("pathOrInlineDv", Z85.encodeUuid(id));
    n.put("offset", offset);
    n.put("sizeInBytes", sizeInBytes);
    n.put("cardinality", rows.cardinality());
    n.put("maxRowIndex", rows.maxRowIndex());
    return n.toString();
  }

  /**
   * The JSON of an {@code i} descriptor: {@code serialized} (the {@link DeletedRows#serialize} form of {@code rows},
   * without the size and checksum a DV file frames it with) Z85-encoded in the log itself, zero-padded to a multiple
   * of 4 bytes; {@code sizeInBytes} is the unpadded length.
   */
  public static String inlineJson(byte[] serialized, DeletedRows rows) {
    var n = MAPPER.createObjectNode();
    n.put("storageType", "i");
    n.put("pathOrInlineDv", Z85.encode(serialized));
    n.put("sizeInBytes", serialized.length);
    n.put("cardinality", rows.cardinality());
    n.put("maxRowIndex", rows.maxRowIndex());
    return n.toString();
  }

  /** Reads the descriptor's JSON as kept in the log (or a checkpoint's struct rendered as JSON). */
  public static DeletionVectorDescriptor parse(String json, String file) {
    try {
      JsonNode n = MAPPER.readTree(json);
      String type = n.path("storageType").asText("");
      if (!type.equals("u") && !type.equals("p") && !type.equals("i")) {
        throw new InvalidTableException("The deletion vector of " + file + " has storageType '" + type
            + "'; the protocol knows 'u' (relative), 'p' (absolute) and 'i' (inline)");
      }
      JsonNode offset = n.get("offset");
      return new DeletionVectorDescriptor(type, n.path("pathOrInlineDv").asText(),
          offset == null || offset.isNull() ? null : offset.asInt(), n.path("sizeInBytes").asInt(),
          n.path("cardinality").asLong());
    } catch (IOException e) {
      throw new InvalidTableException("The deletion vector of " + file + " is not readable JSON: " + json, e);
    }
  }

  /** The key that tells two versions of one data file apart in log replay ({@code <type><path>[@offset]}). */
  public String uniqueId() {
    return offset == null ? storageType + pathOrInlineDv : storageType + pathOrInlineDv + "@" + offset;
  }

  public boolean inline() {
    return storageType.equals("i");
  }

  /**
   * The DV file's path: relative to the table root for {@code u} ({@code <prefix>/deletion_vector_<uuid>.bin}),
   * as written for {@code p}.
   */
  public String path() {
    if (storageType.equals("p")) {
      return pathOrInlineDv;
    }
    if (!storageType.equals("u") || pathOrInlineDv.length() < UUID_CHARS) {
      throw new IllegalStateException("An inline deletion vector has no file");
    }
    int split = pathOrInlineDv.length() - UUID_CHARS;
    String prefix = pathOrInlineDv.substring(0, split);
    UUID id = Z85.decodeUuid(pathOrInlineDv.substring(split));
    return (prefix.isEmpty() ? "" : prefix + "/") + "deletion_vector_" + id + ".bin";
  }

  /** Where the serialised bitmap starts in its file (0 when absent). */
  public int fileOffset() {
    return offset == null ? 0 : offset;
  }
}
