package dev.sluice.orchestration.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.orchestration.backlog.CommittedOffset;
import dev.sluice.orchestration.backlog.KafkaBacklog;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each pipeline has not read yet, from its checkpoint: landing files (count and bytes) not in a files
 * source's log, Kafka offsets behind the topics' end offsets ({@link KafkaBacklog}), or commits of an upstream table
 * after the last one read. Listing storage and asking brokers costs, so a result is kept for {@link #TTL_NANOS};
 * scrapes and page refreshes in between share it.
 */
public final class Backlogs {
  private static final long TTL_NANOS = 5_000_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A pipeline's backlog; a field is -1 when it does not apply to the source or could not be read, and
   * {@code problem} (else null) says why a Kafka backlog could not be read.
   */
  public record Backlog(long files, long bytes, long commits, long offsets, String problem) {
    static final Backlog UNKNOWN = new Backlog(-1, -1, -1, -1, null);
  }

  private record Cached(Backlog backlog, long at) {}

  private final SluiceSession session;
  private final SluiceConfig config;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public Backlogs(SluiceSession session, SluiceConfig config) {
    this.session = session;
    this.config = config;
  }

  public Backlog of(PipelineConfig p) {
    Cached c = cache.get(p.name());
    long now = System.nanoTime();
    if (c == null || now - c.at() > TTL_NANOS) {
      c = new Cached(read(p), now);
      cache.put(p.name(), c);
    }
    return c.backlog();
  }

  private Backlog read(PipelineConfig p) {
    try {
      QueryCheckpoint checkpoint = new QueryCheckpoint(session.location(
          config.tableUri(p.sink().table()) + "/_checkpoints/" + p.name()));
      if (p.source().path().isPresent()) {
        return files(session.location(p.source().path().get()), checkpoint.sourceLocation(0));
      }
      if (p.source().table().isPresent()) {
        return commits(session.table(config.tableUri(p.source().table().get()).toString()), checkpoint);
      }
      if (p.source().kafka().isPresent()) {
        KafkaBacklog k = KafkaBacklog.of(p, checkpoint, KafkaBacklog.TIMEOUT);
        return new Backlog(-1, -1, -1, k.offsetsBehind(), k.problem().orElse(null));
      }
    } catch (RuntimeException e) {
      // a backlog is for looking at; a storage hiccup must not fail a scrape
    }
    return Backlog.UNKNOWN;
  }

  private static Backlog files(Location folder, Location log) {
    Set<String> taken = new HashSet<>();
    String logPrefix = log.key() + "/";
    try (CloseableIterator<ObjectStatus> it = log.store().list(logPrefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        if (s.key().substring(logPrefix.length()).matches("\\d+(\\.compact)?")) {
          String[] lines = new String(log.store().read(s.key()), StandardCharsets.UTF_8).split("\n");
          for (int i = 1; i < lines.length; i++) {   // the first line is the log's format version
            if (!lines[i].isBlank()) {
              taken.add(field(lines[i], "path"));
            }
          }
        }
      }
    }
    long files = 0;
    long bytes = 0;
    String dir = folder.key().isEmpty() ? "" : folder.key() + "/";
    try (CloseableIterator<ObjectStatus> it = folder.store().list(dir)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        if (!hidden(s.key().substring(dir.length())) && !taken.contains(s.key())) {
          files++;
          bytes += s.size();
        }
      }
    }
    return new Backlog(files, bytes, -1, -1, null);
  }

  private static Backlog commits(Table upstream, QueryCheckpoint checkpoint) {
    long next = CommittedOffset.of(checkpoint).map(o -> Math.max(0, parseLong(field(o.json(), "reservoirVersion"))))
        .orElse(0L);
    long latest = upstream.exists() ? upstream.latestVersion().orElse(-1) : -1;
    return new Backlog(-1, -1, Math.max(0, latest + 1 - next), -1, null);
  }

  private static long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String field(String json, String name) {
    try {
      JsonNode n = JSON.readTree(json).path(name);
      return n.isMissingNode() || n.isNull() ? "" : n.asText();
    } catch (IOException e) {
      return "";
    }
  }

  /** The file source skips names starting with '_' or '.' at any level. */
  private static boolean hidden(String relative) {
    for (String part : relative.split("/")) {
      if (part.startsWith("_") || part.startsWith(".")) {
        return true;
      }
    }
    return false;
  }
}
