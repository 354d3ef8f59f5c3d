package dev.sluice.table.internal.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.storage.ObjectStore;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@code _last_checkpoint} hint: only a hint, so anything unreadable is treated as absent. */
record LastCheckpoint(long version, Integer parts) {
  private static final Logger LOG = LoggerFactory.getLogger(LastCheckpoint.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Set<URI> WARNED = ConcurrentHashMap.newKeySet();

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
        return ignored(store.uriOf(key), "it holds no checkpoint version");
      }
      JsonNode parts = node.get("parts");
      return Optional.of(new LastCheckpoint(node.get("version").asLong(),
          parts == null || parts.isNull() ? null : parts.asInt()));
    } catch (java.io.IOException e) {
      String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      return ignored(store.uriOf(key), "it is not valid JSON (" + detail + ")");
    }
  }

  /**
   * Every snapshot load reads the hint again (a run loads a table's snapshot many times), so a broken one is
   * a warning the first time in this process and a debug line after that.
   */
  private static Optional<LastCheckpoint> ignored(URI hint, String why) {
    String message = "Ignoring " + hint + ": " + why + "; the log is listed from version 0 instead, which makes"
        + " loading the table slower. The next checkpoint rewrites it; delete it to stop this message.";
    if (WARNED.add(hint)) {
      LOG.warn("{} (logged once per process; further loads log it at DEBUG)", message);
    } else {
      LOG.debug(message);
    }
    return Optional.empty();
  }

  static byte[] toJson(long version, long size, long sizeInBytes, long numOfAddFiles) {
    return String.format("{\"version\":%d,\"size\":%d,\"sizeInBytes\":%d,\"numOfAddFiles\":%d}", version, size,
        sizeInBytes, numOfAddFiles).getBytes(StandardCharsets.UTF_8);
  }
}
