package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.checkpoint.OffsetEntry;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a pipeline has to do before an availableNow run, for the progress bar: new landing files (bronze)
 * or new commits of the upstream table (silver, gold), counted from the query's checkpoint. An estimate:
 * when it cannot be known the total is -1 and progress shows only rows.
 */
abstract class Backlog {
  /** {@code files} or {@code commits}. */
  abstract String unit();

  /** Units to process, or -1 when unknown. */
  abstract long total();

  /** Units done after the batch {@code p} (counted from the start of the run). */
  abstract long doneAfter(QueryProgress p);

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
    } catch (RuntimeException e) {
      // fall through: an unknown backlog
    }
    return new Unknown();
  }

  /** No backlog to show (continuous runs: only batches and rows). */
  static Backlog unknown() {
    return new Unknown();
  }

  /** The last committed batch's end offset of the query's first source. */
  static Optional<SourceOffset> committedOffset(QueryCheckpoint checkpoint) {
    OptionalLong batch = checkpoint.latestCommitBatch();
    if (batch.isEmpty()) {
      return Optional.empty();
    }
    return checkpoint.offsets(batch.getAsLong()).map(OffsetEntry::offsets)
        .filter(o -> !o.isEmpty()).flatMap(o -> o.get(0));
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
      String dir = folder.key().isEmpty() ? "" : folder.key() + "/";
      try (CloseableIterator<ObjectStatus> it = folder.store().list(dir)) {
        while (it.hasNext()) {
          String key = it.next().key();
          if (!hidden(key.substring(dir.length())) && !logged.contains(key)) {
            count++;
          }
        }
      }
      this.total = count;
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
      long next = committedOffset(checkpoint).map(o -> field(o.json(), "reservoirVersion")).orElse(0L);
      this.start = Math.max(0, next);
      long latest = upstream.exists() ? upstream.latestVersion().orElse(-1) : -1;
      this.total = Math.max(0, latest + 1 - start);
    }

    @Override
    String unit() {
      return "commits";
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
}
