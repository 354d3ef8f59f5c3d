package dev.sluice.table.internal.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.storage.ObjectStore;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@code _last_checkpoint} hint: only a hint, so anything unreadable is treated as absent. */
record LastCheckpoint(long version, Integer parts) {
  private static final Logger LOG = LoggerFactory.getLogger(LastCheckpoint.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static Optional<LastCheckpoint> read(ObjectStore store, String logPath) {
    String key = FileNames.lastCheckpointFile(logPath);
    byte[] bytes;
    try {
      bytes = store.read(key);
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
    try {
      JsonNode node = MAPPER.readTree(new String(bytes, StandardCharsets.UTF_8));
      if (node == null || !node.path("version").canConvertToLong() || !node.path("version").isIntegralNumber()) {
        LOG.warn("Ignoring {}: it holds no checkpoint version; the log will be listed from version 0", store.uriOf(key));
        return Optional.empty();
      }
      JsonNode parts = node.get("parts");
      return Optional.of(new LastCheckpoint(node.get("version").asLong(),
          parts == null || parts.isNull() ? null : parts.asInt()));
    } catch (java.io.IOException e) {
      LOG.warn("Ignoring {}: it is not valid JSON ({}); the log will be listed from version 0", store.uriOf(key),
          e.getMessage());
      return Optional.empty();
    }
  }

  static byte[] toJson(long version, long size, long sizeInBytes, long numOfAddFiles) {
    return String.format("{\"version\":%d,\"size\":%d,\"sizeInBytes\":%d,\"numOfAddFiles\":%d}", version, size,
        sizeInBytes, numOfAddFiles).getBytes(StandardCharsets.UTF_8);
  }
}
