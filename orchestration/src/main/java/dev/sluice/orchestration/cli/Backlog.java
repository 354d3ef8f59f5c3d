package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.ingestion.source.SourceOffset;
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
import org.apache.kafka.common.TopicPartition;

/**
 * What a pipeline has to do before an availableNow run, for the progress bar: new landing files or Kafka offsets
 * behind latest (bronze), or new commits of the upstream table (silver, gold), counted from the query's checkpoint.
 * An estimate: when it cannot be known the total is -1, {@link #note()} may say why, and progress shows only rows.
 */
abstract class Backlog {
  /** {@code files} or {@code commits}. */
  abstract String unit();

  /** Units to process, or -1 when unknown. */
  abstract long total();

  /** Units done after the batch {@code p} (counted from the start of the run). */
  abstract long doneAfter(QueryProgress p);

  /**
   * Whether the backlog is known and small enough that the run ends within seconds (new landing files of at most
   * {@code maxBytes}, at most {@code maxCommits} upstream commits, at most {@code maxOffsets} Kafka offsets).
   */
  boolean small(long maxBytes, long maxCommits, long maxOffsets) {
    return false;
  }

  /** Bytes of the new landing files (0 for other backlogs). */
  long bytes() {
    return 0;
  }

  /** Why the backlog is unknown, when there is more to say than that (empty otherwise). */
  String note() {
    return "";
  }

  /** The backlog of {@code p}; unknown when it cannot be computed (progress is never a reason to fail a run). */
  static Backlog of(SluiceSession session, SluiceConfig config, PipelineConfig p) {
    try {
      QueryCheckpoint checkpoint = new QueryCheckpoint(session.location(Pipelines.checkpointUri(config, p)));
      if (p.source().path().isPresent()) {
        return new Files(session.location(p.source().path().get()), checkpoint);
      }
      if (p.source().table().isPresent()) {
        return new Commits(session.table(config.tableUri(p.source().table().get()).toString()), checkpoint);
      }
      if (p.source().kafka().isPresent()) {
        return new Offsets(p, checkpoint);
      }
    } catch (RuntimeException e) {
      // fall through: an unknown backlog
    }
    return new Unknown();
  }

  /** No backlog to show (continuous runs: only batches and rows). */
  static Backlog unknown() {
    return new Unknown();
  }

  static long field(String json, String name) {
    if (json == null) {
      return -1;
    }
    try {
      JsonNode n = Values.JSON.readTree(json).path(name);
      return n.isNumber() ? n.asLong() : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  private static final class Unknown extends Backlog {
    private final String note;

    Unknown() {
      this("");
    }

    Unknown(String note) {
      this.note = note;
    }

    @Override
    String note() {
      return note;
    }

    @Override
    String unit() {
      return "batches";
    }

    @Override
    long total() {
      return -1;
    }

    @Override
    long doneAfter(QueryProgress p) {
      return 0;
    }
  }

  /** Landing files not yet in the source's file log ({@code <checkpoint>/sources/0}). */
  private static final class Files extends Backlog {
    private final Location log;
    private final long total;
    private final long bytes;
    private long lastLogId;
    private long done;

    Files(Location folder, QueryCheckpoint checkpoint) {
      this.log = checkpoint.sourceLocation(0);
      Set<String> logged = new HashSet<>();
      long latest = -1;
      String prefix = log.key() + "/";
      try (CloseableIterator<ObjectStatus> it = log.store().list(prefix)) {
        while (it.hasNext()) {
          ObjectStatus s = it.next();
          String name = s.key().substring(prefix.length());
          if (name.matches("\\d+(\\.compact)?")) {
            latest = Math.max(latest, Long.parseLong(name.replace(".compact", "")));
            for (String line : lines(s.key())) {
              logged.add(text(line, "path"));
            }
          }
        }
      }
      this.lastLogId = latest;
      long count = 0;
      long size = 0;
      String dir = folder.key().isEmpty() ? "" : folder.key() + "/";
      try (CloseableIterator<ObjectStatus> it = folder.store().list(dir)) {
        while (it.hasNext()) {
          ObjectStatus s = it.next();
          String key = s.key();
          if (!hidden(key.substring(dir.length())) && !logged.contains(key)) {
            count++;
            size += s.size();
          }
        }
      }
      this.total = count;
      this.bytes = size;
    }

    @Override
    boolean small(long maxBytes, long maxCommits, long maxOffsets) {
      return bytes <= maxBytes;
    }

    @Override
    long bytes() {
      return bytes;
    }

    @Override
    String unit() {
      return "files";
    }

    @Override
    long total() {
      return total;
    }

    @Override
    long doneAfter(QueryProgress p) {
      long id = p.sources().isEmpty() ? -1 : field(p.sources().get(0).endOffset(), "logOffset");
      for (long i = lastLogId + 1; i <= id; i++) {
        done += filesOf(i);
      }
      lastLogId = Math.max(lastLogId, id);
      return Math.min(done, total);
    }

    private long filesOf(long id) {
      for (String name : new String[] {Long.toString(id), id + ".compact"}) {
        String key = log.key() + "/" + name;
        if (log.store().status(key).isPresent()) {
          return lines(key).stream().filter(l -> field(l, "batchId") == id).count();
        }
      }
      return 0;
    }

    private java.util.List<String> lines(String key) {
      String[] all = new String(log.store().read(key), StandardCharsets.UTF_8).split("\n");
      java.util.List<String> out = new java.util.ArrayList<>();
      for (int i = 1; i < all.length; i++) {   // the first line is the format version
        if (!all[i].isBlank()) {
          out.add(all[i]);
        }
      }
      return out;
    }

    private static String text(String json, String name) {
      try {
        return Values.JSON.readTree(json).path(name).asText();
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

  /** Versions of the upstream table after the one the query's last batch read up to. */
  private static final class Commits extends Backlog {
    private final long start;
    private final long total;

    Commits(Table upstream, QueryCheckpoint checkpoint) {
      long next = CommittedOffset.of(checkpoint).map(o -> field(o.json(), "reservoirVersion")).orElse(0L);
      this.start = Math.max(0, next);
      long latest = upstream.exists() ? upstream.latestVersion().orElse(-1) : -1;
      this.total = Math.max(0, latest + 1 - start);
    }

    @Override
    String unit() {
      return "commits";
    }

    @Override
    boolean small(long maxBytes, long maxCommits, long maxOffsets) {
      return total <= maxCommits;
    }

    @Override
    long total() {
      return total;
    }

    @Override
    long doneAfter(QueryProgress p) {
      long end = p.sources().isEmpty() ? -1 : field(p.sources().get(0).endOffset(), "reservoirVersion");
      return end < 0 ? 0 : Math.min(total, Math.max(0, end - start));
    }
  }

  /** Kafka offsets behind the topics' end offsets, from the positions of the last committed batch. */
  private static final class Offsets extends Backlog {
    private final KafkaBacklog backlog;
    private final Map<TopicPartition, Long> start;

    Offsets(PipelineConfig p, QueryCheckpoint checkpoint) {
      this.backlog = KafkaBacklog.of(p, checkpoint, KafkaBacklog.TIMEOUT);
      this.start = KafkaBacklog.positions(CommittedOffset.of(checkpoint).map(SourceOffset::json).orElse(null));
    }

    @Override
    String unit() {
      return "offsets";
    }

    @Override
    long total() {
      return backlog.offsetsBehind();
    }

    @Override
    String note() {
      return backlog.problem().orElse("");
    }

    /** Offsets the run's batches moved past since it started; a partition new to the run counts from 0. */
    @Override
    long doneAfter(QueryProgress p) {
      if (p.sources().isEmpty() || total() < 0) {
        return 0;
      }
      long done = 0;
      for (Map.Entry<TopicPartition, Long> e : KafkaBacklog.positions(p.sources().get(0).endOffset()).entrySet()) {
        done += Math.max(0, e.getValue() - start.getOrDefault(e.getKey(), 0L));
      }
      return Math.min(done, total());
    }
  }
}
