package dev.sluice.ingestion.internal.sink.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The log of a file sink's output folder, in Spark's format so that Spark reads it and Sluice reads Spark's:
 * {@code <folder>/_spark_metadata/<batchId>} holds the line {@code v1} and then one JSON object per file the batch
 * added ({@code path} as a URI, {@code size}, {@code isDir}, {@code modificationTime}, {@code blockReplication},
 * {@code blockSize}, {@code action: "add"}). Every {@value #COMPACT_INTERVAL}th batch is written as
 * {@code <batchId>.compact} with the files of all batches so far, so a reader reads the newest compact file and the
 * few batches after it.
 *
 * <p>Each log file is created with put-if-absent, so it appears whole or not at all, and a batch that is in the
 * log is never written again: the files of a batch are exactly those its log entry names, and data files a crashed
 * attempt left behind are not output.
 */
public final class FileSinkLog {
  /** The log folder's name below the output folder. */
  public static final String DIR = "_spark_metadata";
  static final int COMPACT_INTERVAL = 10;
  private static final String VERSION = "v1";
  private static final String COMPACT = ".compact";
  private static final long BLOCK_SIZE = 32L << 20;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One file of the output, as the log records it. */
  public record Entry(String path, long size, long modificationTime) {}

  private final ObjectStore store;
  private final String prefix;

  /** The log of the output folder {@code folderKey} of {@code store}. */
  public FileSinkLog(ObjectStore store, String folderKey) {
    this.store = store;
    this.prefix = (folderKey.isEmpty() ? "" : folderKey + "/") + DIR + "/";
  }

  /** True if the folder has a sink log with at least one batch: readers then read only the files it names. */
  public boolean exists() {
    return latestBatchId().isPresent();
  }

  /** The last batch in the log, or empty. */
  public OptionalLong latestBatchId() {
    TreeMap<Long, String> files = logFiles();
    return files.isEmpty() ? OptionalLong.empty() : OptionalLong.of(files.lastKey());
  }

  /**
   * Records the files of batch {@code batchId} (a compact file every {@value #COMPACT_INTERVAL} batches).
   *
   * @throws dev.sluice.table.exceptions.ObjectAlreadyExistsException if the batch is already in the log (another
   *     writer of the same folder)
   */
  void add(long batchId, List<Entry> entries) {
    boolean compact = (batchId + 1) % COMPACT_INTERVAL == 0;
    List<Entry> content = entries;
    if (compact) {
      content = new ArrayList<>(files());
      content.addAll(entries);
    }
    StringBuilder out = new StringBuilder(VERSION);
    for (Entry e : content) {
      out.append('\n').append(toJson(e));
    }
    store.create(prefix + batchId + (compact ? COMPACT : ""), out.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Every file of the output, in batch order: the newest compact file's, then those of the batches after it. */
  public List<Entry> files() {
    TreeMap<Long, String> logs = logFiles();
    Long start = null;
    for (var e : logs.descendingMap().entrySet()) {
      if (e.getValue().endsWith(COMPACT)) {
        start = e.getKey();
        break;
      }
    }
    List<Entry> out = new ArrayList<>();
    for (String key : (start == null ? logs : logs.tailMap(start, true)).values()) {
      out.addAll(read(key));
    }
    return out;
  }

  /** The object key of a logged file's {@code path} URI, if it lies in {@code store}. */
  public Optional<String> keyOf(Entry e) {
    return store.keyOf(URI.create(e.path()));
  }

  /** The partition folders' values of a file at {@code relativeKey} below the output folder (null for Hive's null). */
  public static java.util.Map<String, String> partitionValues(String relativeKey) {
    return PartitionPaths.valuesOf(relativeKey);
  }

  private List<Entry> read(String key) {
    String[] lines = new String(store.read(key), StandardCharsets.UTF_8).split("\n");
    if (lines.length == 0 || !lines[0].trim().equals(VERSION)) {
      throw new IllegalStateException("The file sink log " + store.uriOf(key) + " does not start with '" + VERSION
          + "': it was written by a newer version or damaged. Fix: read the folder with the writer's version, or"
          + " delete " + DIR + " to read every file of the folder");
    }
    List<Entry> out = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      try {
        JsonNode n = MAPPER.readTree(lines[i]);
        if (!n.path("action").asText("add").equals("add")) {
          continue;
        }
        out.add(new Entry(n.path("path").asText(), n.path("size").asLong(), n.path("modificationTime").asLong()));
      } catch (IOException e) {
        throw new IllegalStateException("Line " + (i + 1) + " of the file sink log " + store.uriOf(key)
            + " is not JSON: " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static String toJson(Entry e) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("path", e.path());
    n.put("size", e.size());
    n.put("isDir", false);
    n.put("modificationTime", e.modificationTime());
    n.put("blockReplication", 1);
    n.put("blockSize", BLOCK_SIZE);
    n.put("action", "add");
    return n.toString();
  }

  /** Batch id → log file key; a batch's compact file wins over a plain one of the same id. */
  private TreeMap<Long, String> logFiles() {
    TreeMap<Long, String> out = new TreeMap<>();
    try (CloseableIterator<ObjectStatus> it = store.list(prefix)) {
      while (it.hasNext()) {
        String name = it.next().key().substring(prefix.length());
        String id = name.endsWith(COMPACT) ? name.substring(0, name.length() - COMPACT.length()) : name;
        if (!id.isEmpty() && id.chars().allMatch(Character::isDigit)) {
          long batch = Long.parseLong(id);
          if (name.endsWith(COMPACT) || !out.containsKey(batch)) {
            out.put(batch, prefix + name);
          }
        }
      }
    }
    return out;
  }
}
