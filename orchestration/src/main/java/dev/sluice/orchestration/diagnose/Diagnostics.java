package dev.sluice.orchestration.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.KafkaSourceConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.CheckpointIncompatibleException;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.checkpoint.QueryAlreadyActiveException;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.orchestration.PipelineRunner;
import dev.sluice.orchestration.Sessions;
import dev.sluice.table.DataFile;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Diagnoses pipelines without running them: every check only reads, and the plan check starts the pipeline on a
 * {@link ReadOnlyStore} so that the engine's own start-up check (the plan fingerprint) decides, and the start stops
 * at its first write.
 */
public final class Diagnostics implements AutoCloseable {
  /** The engine's default runner lease timeout (the YAML config can't change it yet). */
  static final Duration LEASE_TIMEOUT = Duration.ofSeconds(10);
  /** Below half of Delta's 128 MB target a file is small, as auto-compaction counts them. */
  static final long SMALL_FILE_BYTES = 64L << 20;
  /** Auto-compaction's threshold: this many small files in a table ask for OPTIMIZE. */
  static final int SMALL_FILES_WARNING = 50;
  /** Commits to replay after the newest checkpoint beyond which reads slow down (the interval is 10). */
  static final int COMMITS_AFTER_CHECKPOINT_WARNING = 30;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SluiceConfig config;
  private final SluiceSession session;
  private final SluiceSession readOnly;
  private final BacklogProbe backlog;

  public Diagnostics(SluiceConfig config, BacklogProbe backlog) {
    this.config = config;
    this.session = Sessions.forConfig(config);
    this.readOnly = Sessions.builder(config).wrapStores(ReadOnlyStore::new).build();
    this.backlog = backlog;
  }

  public PipelineDiagnosis diagnose(PipelineConfig p) {
    List<Finding> out = new ArrayList<>();
    String tableUri = config.tableUri(p.sink().table()).toString();
    QueryCheckpoint checkpoint = new QueryCheckpoint(session.location(tableUri + "/_checkpoints/" + p.name()));
    guarded(out, "fingerprint", "", () -> out.add(fingerprint(p, checkpoint)));
    guarded(out, "lease", "", () -> out.add(lease(checkpoint)));
    guarded(out, "pending", "", () -> out.add(pending(checkpoint, tableUri)));
    guarded(out, "source", "", () -> out.add(source(p)));
    List<String> tables = new ArrayList<>(List.of(p.sink().table()));
    tables.addAll(p.layer().sideTables(p.sink().table()));
    for (String t : tables) {
      guarded(out, "table", t, () -> table(t, out));
    }
    guarded(out, "state", "", () -> state(checkpoint, out));
    return PipelineDiagnosis.of(p.name(), p.layer().name().toLowerCase(Locale.ROOT), out);
  }

  /** A check that fails to read is itself a finding: storage unreachable or a file that doesn't parse. */
  private static void guarded(List<Finding> out, String check, String subject, Runnable body) {
    try {
      body.run();
    } catch (RuntimeException e) {
      out.add(Finding.of(check, subject, Severity.ERROR, "could not check: " + message(e)));
    }
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  private Finding fingerprint(PipelineConfig p, QueryCheckpoint checkpoint) {
    OptionalLong planned = checkpoint.latestOffsetsBatch();
    StreamingQuery started = null;
    try {
      started = PipelineRunner.start(readOnly, config, p, Trigger.availableNow());
      return Finding.of("fingerprint", "", Severity.OK, "the config fits the checkpoint");
    } catch (ReadOnlyStore.WriteRefused stopped) {
      if (planned.isEmpty()) {
        return Finding.of("fingerprint", "", Severity.OK, "no batch planned yet: the checkpoint takes this config's plan");
      }
      String checkpointKey = checkpoint.root().key() + "/";
      if (!stopped.key().startsWith(checkpointKey)) {
        // the pipeline writes elsewhere before the engine's check: that write would be its first effect
        return new Finding("fingerprint", "", Severity.WARNING, "not checked: the pipeline's first write on starting"
            + " would be " + stopped.key() + ", before the checkpoint check", Map.of("firstWrite", stopped.key()));
      }
      return new Finding("fingerprint", "", Severity.OK, "the config's stateful plan fits the checkpoint (batch "
          + planned.getAsLong() + ")", Map.of("batch", planned.getAsLong()));
    } catch (CheckpointIncompatibleException e) {
      return new Finding("fingerprint", "", Severity.ERROR, "the config's stateful plan differs from the checkpoint's: "
          + String.join("; ", e.differences()) + ". Undo the change, or give the pipeline a new checkpoint (it then"
          + " reprocesses its source)", Map.of("differences", e.differences()));
    } catch (QueryAlreadyActiveException e) {
      // the lease is checked after the fingerprint: the plan fits; the lease finding tells the rest
      return Finding.of("fingerprint", "", Severity.OK, "the config's stateful plan fits the checkpoint");
    } catch (RuntimeException e) {
      return Finding.of("fingerprint", "", Severity.ERROR, "the pipeline can't start as configured: " + message(e));
    } finally {
      if (started != null) {
        started.stop();
      }
    }
  }

  private Finding lease(QueryCheckpoint checkpoint) {
    Location file = checkpoint.root().resolve("runner");
    if (file.store().status(file.key()).isEmpty()) {
      return Finding.of("lease", "", Severity.OK, "not held: no runner is active");
    }
    JsonNode held;
    try {
      held = JSON.readTree(file.store().read(file.key()));
    } catch (IOException e) {
      return Finding.of("lease", "", Severity.OK, "unreadable lease file " + file + ": the next start takes it over");
    }
    String runId = held.path("runId").asText();
    String host = held.path("host").asText("?");
    Instant beat = Instant.parse(held.path("heartbeatAt").asText());
    long ageMs = Duration.between(beat, Instant.now()).toMillis();
    Optional<Boolean> alive = processAlive(host);
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("runId", runId);
    facts.put("holder", host);
    facts.put("heartbeatAgeMs", ageMs);
    facts.put("alive", alive.orElse(null));
    if (ageMs >= LEASE_TIMEOUT.toMillis()) {
      return new Finding("lease", "", Severity.OK, "left by run " + runId + " (" + host + "), last heartbeat "
          + seconds(ageMs) + " ago: expired, the next start takes it over", facts);
    }
    if (alive.isPresent() && !alive.get()) {
      return new Finding("lease", "", Severity.WARNING, "held by run " + runId + " (" + host + ") whose process is"
          + " gone; its heartbeat is " + seconds(ageMs) + " old, so a start in the next "
          + seconds(LEASE_TIMEOUT.toMillis() - ageMs) + " fails with 'already running'", facts);
    }
    return new Finding("lease", "", Severity.WARNING, "held by run " + runId + " (" + host + "), heartbeat "
        + seconds(ageMs) + " ago: a runner is active, a second start fails; stop it first", facts);
  }

  /** Whether the lease's {@code pid@host} process runs, when it is on this host; empty when it can't be told. */
  private static Optional<Boolean> processAlive(String holder) {
    int at = holder.indexOf('@');
    if (at < 0) {
      return Optional.empty();
    }
    try {
      String localHost = java.net.InetAddress.getLocalHost().getHostName();
      if (!holder.substring(at + 1).equals(localHost)) {
        return Optional.empty();
      }
      long pid = Long.parseLong(holder.substring(0, at));
      return Optional.of(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f s", Math.max(0, ms) / 1000.0);
  }

  private Finding pending(QueryCheckpoint checkpoint, String tableUri) {
    OptionalLong planned = checkpoint.latestOffsetsBatch();
    OptionalLong committed = checkpoint.latestCommitBatch();
    if (planned.isEmpty()) {
      return Finding.of("pending", "", Severity.OK, "no batch has run yet");
    }
    long n = planned.getAsLong();
    if (committed.isPresent() && committed.getAsLong() >= n) {
      return new Finding("pending", "", Severity.OK, "none: batch " + n + " is the last one, committed",
          Map.of("lastBatch", n));
    }
    checkpoint.offsets(n);   // a corrupt offsets file fails here, named by the checkpoint's message
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("batch", n);
    String sinkState = "";
    Optional<String> queryId = checkpoint.metadata().map(m -> m.id().toString());
    Table sink = session.table(tableUri);
    if (queryId.isPresent() && sink.exists()) {
      OptionalLong written = sink.transactionVersion(queryId.get());
      boolean inSink = written.isPresent() && written.getAsLong() >= n;
      facts.put("inSink", inSink);
      sinkState = inSink ? " (its rows are already in the table; only commits/" + n + " is missing)"
          : " (nothing of it is in the table yet)";
    }
    return new Finding("pending", "", Severity.WARNING, "batch " + n + " was planned (offsets/" + n + ") but not committed"
        + sinkState + ": the next run re-executes it with the same offsets", facts);
  }

  private Finding source(PipelineConfig p) {
    BacklogProbe.Backlog b = backlog.of(session, p);
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("unit", b.unit());
    facts.put("backlog", b.total());
    if (p.source().path().isPresent()) {
      String path = p.source().path().get();
      Location dir = session.location(path);
      facts.put("path", path);
      boolean any;
      try (CloseableIterator<ObjectStatus> it = dir.store().list(dir.key().isEmpty() ? "" : dir.key() + "/")) {
        any = it.hasNext();
      }
      if (!any) {
        return new Finding("source", path, Severity.WARNING, "reachable but empty: no file at " + path
            + " (check the path)", facts);
      }
      return new Finding("source", path, Severity.OK, "reachable, backlog " + backlogText(b), facts);
    }
    if (p.source().table().isPresent()) {
      String name = p.source().table().get();
      Table upstream = session.table(config.tableUri(name).toString());
      facts.put("table", name);
      if (!upstream.exists()) {
        return new Finding("source", name, Severity.WARNING, "upstream table " + name + " doesn't exist yet"
            + p.source().pipeline().map(u -> " (run pipeline " + u + " first)").orElse(""), facts);
      }
      return new Finding("source", name, Severity.OK, "reachable (version " + upstream.latestVersion().getAsLong()
          + "), backlog " + backlogText(b), facts);
    }
    if (p.source().kafka().isPresent()) {
      KafkaSourceConfig k = p.source().kafka().get();
      String topics = String.join(",", k.topics());
      facts.put("topics", k.topics());
      facts.put("bootstrapServers", k.bootstrapServers());
      if (b.total() < 0) {
        return new Finding("source", topics, Severity.WARNING, "backlog " + backlogText(b), facts);
      }
      return new Finding("source", topics, Severity.OK, "reachable at " + k.bootstrapServers() + ", backlog "
          + backlogText(b) + " behind latest", facts);
    }
    return new Finding("source", "", Severity.OK, "not checked (no path or table)", facts);
  }

  private static String backlogText(BacklogProbe.Backlog b) {
    if (b.total() < 0) {
      return b.note().isEmpty() ? "unknown" : "unknown: " + b.note();
    }
    return b.total() + " " + b.unit();
  }

  private void table(String name, List<Finding> out) {
    Table t = session.table(config.tableUri(name).toString());
    if (!t.exists()) {
      out.add(Finding.of("table", name, Severity.OK, "not created yet (the first run creates it)"));
      return;
    }
    Snapshot s = t.latestSnapshot();
    List<String> features = features(s);
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("version", s.version());
    facts.put("minReaderVersion", s.minReaderVersion());
    facts.put("minWriterVersion", s.minWriterVersion());
    facts.put("features", features);
    out.add(new Finding("table", name, Severity.OK, "protocol reader " + s.minReaderVersion() + " / writer "
        + s.minWriterVersion() + (features.isEmpty() ? "" : ", features " + String.join(", ", features)), facts));

    List<DataFile> files = s.files();
    long small = files.stream().filter(f -> f.size() < SMALL_FILE_BYTES).count();
    long bytes = files.stream().mapToLong(DataFile::size).sum();
    Map<String, Object> fileFacts = new LinkedHashMap<>();
    fileFacts.put("files", files.size());
    fileFacts.put("smallFiles", small);
    fileFacts.put("bytes", bytes);
    out.add(new Finding("files", name, small >= SMALL_FILES_WARNING ? Severity.WARNING : Severity.OK, files.size()
        + " data files, " + small + " small (< 64 MB)" + (small >= SMALL_FILES_WARNING
            ? ": compact them (sluice optimize " + name + ")" : ""), fileFacts));

    LogScan log = LogScan.of(t);
    long afterCheckpoint = s.version() - log.lastCheckpoint;
    Map<String, Object> logFacts = new LinkedHashMap<>();
    logFacts.put("commits", log.commitFiles);
    logFacts.put("lastCheckpoint", log.lastCheckpoint < 0 ? null : log.lastCheckpoint);
    logFacts.put("commitsAfterCheckpoint", afterCheckpoint);
    out.add(new Finding("log", name, afterCheckpoint > COMMITS_AFTER_CHECKPOINT_WARNING ? Severity.WARNING
        : Severity.OK, log.commitFiles + " commit files, " + (log.lastCheckpoint < 0 ? "no checkpoint"
            : "newest checkpoint at version " + log.lastCheckpoint) + ", " + afterCheckpoint
            + " commits to replay after it", logFacts));

    Set<String> referenced = new HashSet<>(log.referenced);
    files.forEach(f -> referenced.add(f.key()));
    long orphans = 0;
    long orphanBytes = 0;
    List<String> examples = new ArrayList<>();
    String prefix = t.path().isEmpty() ? "" : t.path() + "/";
    try (CloseableIterator<ObjectStatus> it = t.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus o = it.next();
        String relative = o.key().substring(prefix.length());
        if (hidden(relative) || referenced.contains(o.key())) {
          continue;
        }
        orphans++;
        orphanBytes += o.size();
        if (examples.size() < 3) {
          examples.add(relative);
        }
      }
    }
    Map<String, Object> orphanFacts = new LinkedHashMap<>();
    orphanFacts.put("orphanFiles", orphans);
    orphanFacts.put("orphanBytes", orphanBytes);
    orphanFacts.put("examples", examples);
    out.add(new Finding("orphans", name, orphans > 0 ? Severity.WARNING : Severity.OK, orphans == 0
        ? "no orphan files" : orphans + " files (" + orphanBytes + " bytes) that no commit in the log references,"
            + " e.g. " + examples + ": left by writes that failed or were killed before their commit; VACUUM removes"
            + " them once past the retention", orphanFacts));
  }

  /** Features the table's protocol versions and properties ask readers and writers for. */
  private static List<String> features(Snapshot s) {
    List<String> out = new ArrayList<>();
    Map<String, String> p = s.properties();
    if ("true".equalsIgnoreCase(p.get("delta.appendOnly"))) {
      out.add("appendOnly");
    }
    if (s.minWriterVersion() >= 2) {
      out.add("invariants");
    }
    if (s.minWriterVersion() >= 3) {
      out.add("checkConstraints");
    }
    if ("true".equalsIgnoreCase(p.get("delta.enableChangeDataFeed"))) {
      out.add("changeDataFeed");
    }
    if (p.containsKey("delta.columnMapping.mode") && !"none".equals(p.get("delta.columnMapping.mode"))) {
      out.add("columnMapping");
    }
    if ("true".equalsIgnoreCase(p.get("delta.enableDeletionVectors"))) {
      out.add("deletionVectors");
    }
    return out;
  }

  /** Folders and files starting with '_' or '.' are never data (the log, checkpoints, change data). */
  private static boolean hidden(String relative) {
    for (String part : relative.split("/")) {
      if (part.startsWith("_") || part.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** The table's {@code _delta_log}: how many commits, the newest checkpoint, every file any commit names. */
  private record LogScan(long commitFiles, long lastCheckpoint, Set<String> referenced) {
    static LogScan of(Table t) {
      String log = (t.path().isEmpty() ? "" : t.path() + "/") + "_delta_log/";
      long commits = 0;
      long checkpoint = -1;
      Set<String> referenced = new HashSet<>();
      try (CloseableIterator<ObjectStatus> it = t.store().list(log)) {
        while (it.hasNext()) {
          ObjectStatus o = it.next();
          String name = o.key().substring(log.length());
          if (name.matches("\\d{20}\\.json")) {
            commits++;
            paths(t, new String(t.store().read(o.key()), StandardCharsets.UTF_8), referenced);
          } else if (name.matches("\\d{20}\\.checkpoint(\\.\\d+\\.\\d+)?\\.parquet")) {
            checkpoint = Math.max(checkpoint, Long.parseLong(name.substring(0, 20)));
          }
        }
      }
      return new LogScan(commits, checkpoint, referenced);
    }

    private static void paths(Table t, String commit, Set<String> into) {
      for (String line : commit.split("\n")) {
        if (line.isBlank()) {
          continue;
        }
        try {
          JsonNode action = JSON.readTree(line);
          for (String kind : List.of("add", "remove", "cdc")) {
            JsonNode path = action.path(kind).path("path");
            if (path.isTextual()) {
              key(t, path.asText()).ifPresent(into::add);
              dvKey(t, action.path(kind).path("deletionVector")).ifPresent(into::add);
            }
          }
        } catch (IOException e) {
          // a line that doesn't parse names no file; reading the table reports the broken commit
        }
      }
    }

    /** The DV file a {@code deletionVector} descriptor points at (none for an inline DV or none at all). */
    private static Optional<String> dvKey(Table t, JsonNode dv) {
      if (!dv.isObject() || dv.path("storageType").asText().equals("i")) {
        return Optional.empty();
      }
      try {
        String path = dev.sluice.table.internal.dv.DeletionVectorDescriptor.parse(dv.toString(), "a commit").path();
        return dv.path("storageType").asText().equals("p") ? key(t, path) : Optional.of(
            (t.path().isEmpty() ? "" : t.path() + "/") + path);
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }

    private static Optional<String> key(Table t, String logPath) {
      if (logPath.contains(":")) {
        return t.store().keyOf(URI.create(logPath));
      }
      String decoded = URLDecoder.decode(logPath.replace("+", "%2B"), StandardCharsets.UTF_8);
      return Optional.of((t.path().isEmpty() ? "" : t.path() + "/") + decoded);
    }
  }

  private void state(QueryCheckpoint checkpoint, List<Finding> out) {
    Location dir = checkpoint.stateLocation();
    Map<String, long[]> byOperator = new TreeMap<>();   // files, bytes, newest version, partitions seen
    Map<String, Set<String>> partitions = new TreeMap<>();
    String prefix = dir.key() + "/";
    try (CloseableIterator<ObjectStatus> it = dir.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus o = it.next();
        String[] parts = o.key().substring(prefix.length()).split("/");
        if (parts.length != 3 || !parts[2].matches("\\d+\\.(delta|snapshot)")) {
          continue;
        }
        long[] a = byOperator.computeIfAbsent(parts[0], k -> new long[] {0, 0, -1});
        a[0]++;
        a[1] += o.size();
        a[2] = Math.max(a[2], Long.parseLong(parts[2].substring(0, parts[2].indexOf('.'))));
        partitions.computeIfAbsent(parts[0], k -> new HashSet<>()).add(parts[1]);
      }
    }
    if (byOperator.isEmpty()) {
      out.add(Finding.of("state", "", Severity.OK, "no state (the pipeline has no stateful operator, or hasn't run)"));
      return;
    }
    Map<String, Long> rows = checkpoint.stateRows();
    byOperator.forEach((op, a) -> {
      Map<String, Object> facts = new LinkedHashMap<>();
      facts.put("files", a[0]);
      facts.put("bytes", a[1]);
      facts.put("version", a[2]);
      facts.put("partitions", partitions.get(op).size());
      facts.put("rows", rows.get(op));
      out.add(new Finding("state", op, Severity.OK, a[1] + " bytes in " + a[0] + " files, " + partitions.get(op).size()
          + " partitions, version " + a[2] + (rows.get(op) == null ? "" : ", " + rows.get(op) + " rows"), facts));
    });
  }

  @Override
  public void close() {
    readOnly.close();
    session.close();
  }
}
