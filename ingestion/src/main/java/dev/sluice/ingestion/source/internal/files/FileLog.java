package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingestion.Location;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ObjectAlreadyExistsException;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The source's own log of the files each batch took, so that a batch's files are the same after a
 * restart. Log id N is written once, with put-if-absent, as {@code <dir>/N} (example: {@code 7});
 * every {@code compactInterval}-th id is instead written as {@code <dir>/N.compact} (example:
 * {@code 9.compact}) carrying every entry still needed, and the files before it are deleted, like
 * Spark's {@code CompactibleFileStreamLog}. An entry is still needed while its batch is not
 * committed (the runner may ask for it again) or while its file is young enough for discovery to
 * have to know it was seen ({@code maxFileAge}).
 *
 * <p>Format: a {@code v1} line, then one JSON object per file:
 * {@code {"batchId":3,"path":"landing/a.json","size":120,"modificationTime":1700000000000}}.
 */
final class FileLog {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern NAME = Pattern.compile("(\\d+)(\\.compact)?");
  private static final String VERSION = "v1";

  private final Location dir;
  private final int compactInterval;
  private final NavigableMap<Long, List<FileEntry>> batches = new TreeMap<>();
  private long latestId = -1;

  FileLog(Location dir, int compactInterval) {
    this.dir = dir;
    this.compactInterval = compactInterval;
    load();
  }

  /** The newest log id, or -1 when nothing was logged. */
  long latestId() {
    return latestId;
  }

  /** The batches still held (those not compacted away), in id order. */
  NavigableMap<Long, List<FileEntry>> batches() {
    return batches;
  }

  /**
   * The files of log id {@code id}.
   *
   * @throws IllegalStateException if the id was never logged or was compacted away after its commit
   */
  List<FileEntry> batch(long id) {
    List<FileEntry> files = batches.get(id);
    if (files == null) {
      throw new IllegalStateException("The files source's log at " + dir + " has no entry " + id + " (newest: "
          + latestId + "): it was never written or was compacted away after its batch was committed; the query's"
          + " checkpoint does not match this source's log, so restore the checkpoint or start a new one");
    }
    return List.copyOf(files);
  }

  /**
   * Logs {@code files} as id {@code latestId() + 1} and returns what the log holds for that id (the
   * files of an earlier writer when the id already exists).
   *
   * @param lastCommitted the newest committed id (entries up to it may be dropped by compaction)
   * @param purgeBefore files older than this (epoch ms) need not be remembered as seen
   */
  List<FileEntry> add(List<FileEntry> files, long lastCommitted, long purgeBefore) {
    long id = latestId + 1;
    boolean compact = (id + 1) % compactInterval == 0;
    if (compact) {
      dropObsolete(lastCommitted, purgeBefore);
    }
    batches.put(id, new ArrayList<>(files));
    String key = compact ? id + ".compact" : Long.toString(id);
    byte[] content = compact ? serialize(batches) : serialize(Map.of(id, files));
    try {
      dir.store().create(dir.resolve(key).key(), content);
    } catch (ObjectAlreadyExistsException e) {
      // Another run already wrote this id (a crash after writing, or a second runner): it wins.
      batches.clear();
      latestId = -1;
      load();
      return batch(id);
    }
    latestId = id;
    if (compact) {
      deleteBefore(id);
    }
    return batch(id);
  }

  private void dropObsolete(long lastCommitted, long purgeBefore) {
    batches.forEach((id, files) -> {
      if (id <= lastCommitted) {
        files.removeIf(f -> f.modificationTime() < purgeBefore);
      }
    });
    batches.values().removeIf(List::isEmpty);
  }

  private void deleteBefore(long compactId) {
    List<String> obsolete = new ArrayList<>();
    for (Map.Entry<Long, String> e : listIds().entrySet()) {
      if (e.getKey() < compactId) {
        obsolete.add(e.getValue());
      }
    }
    dir.store().deleteAll(obsolete);
  }

  private void load() {
    TreeMap<Long, String> ids = listIds();
    Long compactId = null;
    for (Map.Entry<Long, String> e : ids.descendingMap().entrySet()) {
      if (e.getValue().endsWith(".compact")) {
        compactId = e.getKey();
        break;
      }
    }
    long from = compactId == null ? -1 : compactId;
    for (Map.Entry<Long, String> e : ids.tailMap(from, true).entrySet()) {
      if (e.getKey() == from || !e.getValue().endsWith(".compact")) {
        parse(e.getValue(), dir.store().read(e.getValue()));
        latestId = Math.max(latestId, e.getKey());
      }
    }
  }

  /** Log ids to the key holding them; a compact file wins over a plain one of the same id. */
  private TreeMap<Long, String> listIds() {
    TreeMap<Long, String> ids = new TreeMap<>();
    String prefix = dir.key().isEmpty() ? "" : dir.key() + "/";
    try (CloseableIterator<ObjectStatus> it = dir.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus status = it.next();
        Matcher m = NAME.matcher(status.key().substring(prefix.length()));
        if (m.matches()) {
          long id = Long.parseLong(m.group(1));
          if (m.group(2) != null || !ids.containsKey(id)) {
            ids.put(id, status.key());
          }
        }
      }
    }
    return ids;
  }

  private void parse(String key, byte[] content) {
    String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
    if (lines.length == 0 || !lines[0].equals(VERSION)) {
      throw new IllegalStateException("Source log file " + dir.store().uriOf(key) + " does not start with '" + VERSION
          + "': it was not written by this version of the files source; restore it or start a new checkpoint");
    }
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      try {
        JsonNode node = MAPPER.readTree(lines[i]);
        FileEntry entry = new FileEntry(
            node.get("path").textValue(), node.get("size").longValue(), node.get("modificationTime").longValue());
        batches.computeIfAbsent(node.get("batchId").longValue(), id -> new ArrayList<>()).add(entry);
      } catch (IOException | NullPointerException e) {
        throw new IllegalStateException("Source log file " + dir.store().uriOf(key) + " has a bad line " + (i + 1)
            + ": " + lines[i] + "; restore the file or start a new checkpoint", e);
      }
    }
  }

  private static byte[] serialize(Map<Long, ? extends Collection<FileEntry>> entries) {
    StringBuilder sb = new StringBuilder(VERSION).append('\n');
    entries.forEach((id, files) -> {
      for (FileEntry f : files) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("batchId", id).put("path", f.key()).put("size", f.size()).put("modificationTime", f.modificationTime());
        try {
          sb.append(MAPPER.writeValueAsString(node)).append('\n');
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    });
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
