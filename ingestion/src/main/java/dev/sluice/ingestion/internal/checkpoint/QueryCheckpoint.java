package dev.sluice.ingestion.internal.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.storage.ObjectStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * A query's checkpoint folder, in object storage beside the sink table:
 *
 * <pre>
 *   metadata            {"id": "...", "createdAt": "...", ...}
 *   offsets/N           write-ahead: the offsets batch N reads (created with put-if-absent)
 *   commits/N           batch N is committed to the sink
 *   sources/&lt;i&gt;/...       source-private logs
 *   state/...           state stores
 * </pre>
 *
 * Files use Spark's formats (a {@code v1} line, then JSON lines), so they read familiarly.
 */
public final class QueryCheckpoint {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String VERSION = "v1";

  private final Location root;

  public QueryCheckpoint(Location root) {
    this.root = root;
  }

  public Location root() {
    return root;
  }

  public Location sourceLocation(int index) {
    return root.resolve("sources/" + index);
  }

  public Location stateLocation() {
    return root.resolve("state");
  }

  /** The metadata, if the checkpoint has been used before. */
  public Optional<QueryMetadata> metadata() {
    if (root.store().status(root.resolve("metadata").key()).isEmpty()) {
      return Optional.empty();
    }
    byte[] raw = root.store().read(root.resolve("metadata").key());
    try {
      JsonNode node = MAPPER.readTree(raw);
      Map<String, String> props = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> {
        if (!e.getKey().equals("id") && !e.getKey().equals("createdAt")) {
          props.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
        }
      });
      return Optional.of(new QueryMetadata(UUID.fromString(node.path("id").asText()), node.path("createdAt").asText(null),
          props));
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw new IllegalStateException("The checkpoint metadata " + root.resolve("metadata") + " is unreadable ("
          + e.getMessage() + "). Restore it, or start the query with a new checkpoint location.", e);
    }
  }

  /** Writes the metadata of a new checkpoint (put-if-absent: a concurrent first start loses clearly). */
  public QueryMetadata create(UUID id, Instant now, Map<String, String> properties) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", id.toString());
    node.put("createdAt", now.toString());
    properties.forEach(node::put);
    try {
      root.store().create(root.resolve("metadata").key(), MAPPER.writeValueAsBytes(node));
    } catch (ObjectAlreadyExistsException e) {
      throw new QueryAlreadyActiveException("Another runner created the checkpoint " + root + " at the same moment;"
          + " only one runner of a query may be active. Stop the other one.");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return new QueryMetadata(id, now.toString(), properties);
  }

  /** Rewrites the metadata (e.g. to record a new plan fingerprint after an allowed change). */
  public void updateMetadata(QueryMetadata metadata) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", metadata.id().toString());
    node.put("createdAt", metadata.createdAt());
    metadata.properties().forEach(node::put);
    try {
      root.store().overwrite(root.resolve("metadata").key(), MAPPER.writeValueAsBytes(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes {@code offsets/N} with put-if-absent.
   *
   * @throws QueryAlreadyActiveException when it exists: another runner of this query wrote it
   */
  public void writeOffsets(long batchId, OffsetEntry entry) {
    StringBuilder sb = new StringBuilder(VERSION).append('\n');
    ObjectNode meta = MAPPER.createObjectNode();
    meta.put("batchWatermarkMs", entry.batchWatermarkMs());
    meta.put("batchTimestampMs", entry.batchTimestampMs());
    meta.set("conf", MAPPER.valueToTree(entry.conf()));
    sb.append(meta).append('\n');
    for (Optional<SourceOffset> o : entry.offsets()) {
      sb.append(o.map(SourceOffset::json).orElse("-")).append('\n');
    }
    String key = root.resolve("offsets/" + batchId).key();
    try {
      root.store().create(key, sb.toString().getBytes(StandardCharsets.UTF_8));
    } catch (ObjectAlreadyExistsException e) {
      throw new QueryAlreadyActiveException("Batch " + batchId + " of the query with checkpoint " + root
          + " was already planned by another runner (" + root.store().uriOf(key) + " exists). Only one runner of a"
          + " query may be active: stop the other one, or give this one its own checkpointLocation.");
    }
  }

  public Optional<OffsetEntry> offsets(long batchId) {
    String key = root.resolve("offsets/" + batchId).key();
    byte[] raw;
    try {
      raw = root.store().read(key);
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
    String[] lines = new String(raw, StandardCharsets.UTF_8).split("\n");
    checkVersion(lines, key);
    try {
      JsonNode meta = MAPPER.readTree(lines[1]);
      Map<String, String> conf = new LinkedHashMap<>();
      meta.path("conf").fields().forEachRemaining(e -> conf.put(e.getKey(), e.getValue().asText()));
      List<Optional<SourceOffset>> offsets = new ArrayList<>();
      for (int i = 2; i < lines.length; i++) {
        offsets.add(lines[i].equals("-") ? Optional.empty() : Optional.of(new SourceOffset(lines[i])));
      }
      return Optional.of(new OffsetEntry(meta.path("batchWatermarkMs").asLong(), meta.path("batchTimestampMs").asLong(),
          conf, offsets));
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalStateException("The checkpoint file " + root.store().uriOf(key) + " is unreadable ("
          + e.getMessage() + "). Restore it, or start the query with a new checkpoint location.", e);
    }
  }

  /** Writes {@code commits/N}; an existing one means another runner committed the batch. */
  public void writeCommit(long batchId, CommitEntry entry) {
    String key = root.resolve("commits/" + batchId).key();
    String operators = entry.operatorWatermarksMs().isEmpty() ? ""
        : ",\"operatorWatermarksMs\":" + entry.operatorWatermarksMs();
    String body = VERSION + "\n{\"nextBatchWatermarkMs\":" + entry.nextBatchWatermarkMs() + operators.replace(" ", "")
        + "}\n";
    try {
      root.store().create(key, body.getBytes(StandardCharsets.UTF_8));
    } catch (ObjectAlreadyExistsException e) {
      throw new QueryAlreadyActiveException("Batch " + batchId + " of the query with checkpoint " + root
          + " was committed by another runner. Only one runner of a query may be active.");
    }
  }

  public Optional<CommitEntry> commit(long batchId) {
    String key = root.resolve("commits/" + batchId).key();
    byte[] raw;
    try {
      raw = root.store().read(key);
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
    String[] lines = new String(raw, StandardCharsets.UTF_8).split("\n");
    checkVersion(lines, key);
    try {
      var json = MAPPER.readTree(lines[1]);
      java.util.List<Long> operators = new java.util.ArrayList<>();
      json.path("operatorWatermarksMs").forEach(n -> operators.add(n.asLong()));
      return Optional.of(new CommitEntry(json.path("nextBatchWatermarkMs").asLong(), operators));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("The checkpoint file " + root.store().uriOf(key) + " is unreadable", e);
    }
  }

  public OptionalLong latestOffsetsBatch() {
    return latest("offsets/");
  }

  public OptionalLong latestCommitBatch() {
    return latest("commits/");
  }

  private OptionalLong latest(String folder) {
    long max = -1;
    String prefix = root.resolve(folder).key() + "/";
    try (CloseableIterator<ObjectStatus> it = root.store().list(prefix)) {
      while (it.hasNext()) {
        String name = it.next().key().substring(prefix.length());
        if (name.chars().allMatch(Character::isDigit) && !name.isEmpty()) {
          max = Math.max(max, Long.parseLong(name));
        }
      }
    }
    return max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
  }

  /**
   * Records how many rows each stateful operator keeps after a batch ({@code state/rows.json}), so that
   * tools can show it without loading the stores.
   */
  public void writeStateRows(Map<String, Long> rowsByOperator) {
    try {
      root.store().overwrite(root.resolve("state/rows.json").key(), MAPPER.writeValueAsBytes(rowsByOperator));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The rows each stateful operator kept after the last batch, or empty when none was recorded. */
  public Map<String, Long> stateRows() {
    String key = root.resolve("state/rows.json").key();
    if (root.store().status(key).isEmpty()) {
      return Map.of();
    }
    try {
      Map<String, Long> out = new LinkedHashMap<>();
      MAPPER.readTree(root.store().read(key)).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
      return out;
    } catch (java.io.IOException e) {
      return Map.of();
    }
  }

  /** Deletes the offsets and commit of one batch (the one just beyond the retention), without listing. */
  public void purgeBatch(long batchId) {
    root.store().deleteAll(List.of(root.resolve("offsets/" + batchId).key(), root.resolve("commits/" + batchId).key()));
  }

  /** Deletes offsets and commits of batches before {@code firstToKeep}. */
  public void purgeBefore(long firstToKeep) {
    List<String> doomed = new ArrayList<>();
    for (String folder : List.of("offsets/", "commits/")) {
      String prefix = root.resolve(folder).key() + "/";
      try (CloseableIterator<ObjectStatus> it = root.store().list(prefix)) {
        while (it.hasNext()) {
          String key = it.next().key();
          String name = key.substring(prefix.length());
          if (!name.isEmpty() && name.chars().allMatch(Character::isDigit) && Long.parseLong(name) < firstToKeep) {
            doomed.add(key);
          }
        }
      }
    }
    if (!doomed.isEmpty()) {
      root.store().deleteAll(doomed);
    }
  }

  private void checkVersion(String[] lines, String key) {
    if (lines.length < 2 || !lines[0].equals(VERSION)) {
      throw new IllegalStateException("The checkpoint file " + root.store().uriOf(key) + " is not in the expected"
          + " format (first line should be '" + VERSION + "'). It may come from a newer Sluice or be damaged.");
    }
  }
}
