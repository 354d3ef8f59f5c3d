package dev.sluice.ingestion.source.internal.files;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.source.MalformedRecordException;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.OffsetJson;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.StructType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams the files of a folder (or S3 prefix): each batch takes new files in (modification time,
 * path) order within the read limits and records them in its {@link FileLog}, so that a batch's
 * files are the same after a restart. Names starting with '_' or '.' (files or folders) are never
 * data.
 *
 * <p>The contract with writers: a file is taken once its modification time is at least
 * {@code fileSettleTime} old, and read once. Writers either finish a file within the settle time (no pause
 * longer than it between writes) or write it elsewhere (or under a hidden name) and move it into the folder.
 * A file not yet settled is left for a later trigger; {@code availableNow} and {@code once} wait for it (at
 * most the settle time) so that a run right after landing a file takes it. A taken file that later changes size
 * or modification time is reported (a WARN and {@code numFilesChangedAfterRead}), never re-read.
 */
final class FileSource implements Source {
  static final String OFFSET_FIELD = "logOffset";
  private static final Logger LOG = LoggerFactory.getLogger(FileSource.class);
  private static final int PARSE_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  private final Location folder;
  private final FileSourceOptions options;
  private final RowLayout layout;
  private final FileLog log;
  private final SeenFiles seen;
  private final Optional<FileCleaner> cleaner;
  private final Clock clock;
  private final long settleMs;
  private final FileSourceMetrics metrics = new FileSourceMetrics();
  private final Map<String, FileEntry> reportedChanges = new HashMap<>();
  private long lastCommitted = -1;
  private long lastCleaned = -1;
  private List<FileEntry> availableNow;
  private boolean settling;

  /** What one listing found: files to take, and files too young to take yet. */
  private record Listing(List<FileEntry> settled, List<FileEntry> settling) {}

  FileSource(Location folder, FileSourceOptions options, RowLayout layout, Location metadata,
      Optional<FileCleaner> cleaner, int compactInterval, Clock clock, long settleMs) {
    this.folder = folder;
    this.options = options;
    this.layout = layout;
    this.log = new FileLog(metadata, compactInterval);
    this.seen = new SeenFiles(options.maxFileAgeMs());
    this.cleaner = cleaner;
    this.clock = clock;
    this.settleMs = settleMs;
    log.batches().values().forEach(files -> files.forEach(seen::add));
    seen.purge();
  }

  @Override
  public StructType schema() {
    return layout.schema();
  }

  @Override
  public Optional<SourceOffset> latestOffset(Optional<SourceOffset> start, ReadLimit limit) {
    long startId = OffsetJson.value(start, OFFSET_FIELD, -1);
    if (startId > log.latestId()) {
      throw new IllegalStateException("The query's checkpoint asks for files source log entry " + startId + " but the"
          + " source's log in its checkpoint folder ends at " + log.latestId() + ": the source log was deleted or"
          + " replaced; restore the checkpoint folder or start the query with a new checkpoint");
    }
    if (startId < log.latestId()) {
      // Logged before a crash but never planned by the runner: replay it unchanged.
      return Optional.of(OffsetJson.of(OFFSET_FIELD, startId + 1));
    }
    List<FileEntry> chosen = choose(availableNow != null ? availableNow : listNewFiles().settled(), limit);
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    List<FileEntry> stored = log.add(chosen, lastCommitted, seen.purgeBefore());
    stored.forEach(seen::add);
    seen.purge();
    return Optional.of(OffsetJson.of(OFFSET_FIELD, log.latestId()));
  }

  @Override
  public void prepareForAvailableNow() {
    Listing listing = listNewFiles();
    if (!listing.settling().isEmpty()) {
      long youngest = listing.settling().stream().mapToLong(FileEntry::modificationTime).max().getAsLong();
      sleep(Math.min(settleMs, youngest + settleMs - clock.millis()));
      listing = listNewFiles();
      if (!listing.settling().isEmpty()) {
        LOG.warn(FileSourceErrors.stillSettling(listing.settling().stream()
            .map(f -> folder.store().uriOf(f.key()).toString()).toList(), settleMs));
      }
    }
    availableNow = listing.settled();
    settling = false;
  }

  @Override
  public boolean awaitingData() {
    return settling;
  }

  @Override
  public Map<String, Long> metrics() {
    return metrics.drain();
  }

  private static void sleep(long ms) {
    if (ms <= 0) {
      return;
    }
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<FileEntry> choose(List<FileEntry> candidates, ReadLimit limit) {
    long maxFiles = Math.min(options.maxFiles(), limit.maxFiles());
    long maxBytes = Math.min(options.maxBytes(), limit.maxBytes());
    List<FileEntry> out = new ArrayList<>();
    long bytes = 0;
    for (FileEntry f : candidates) {
      if (!seen.isNew(f)) {
        continue;
      }
      if (out.size() >= maxFiles || (!out.isEmpty() && bytes + f.size() > maxBytes)) {
        break;
      }
      out.add(f);
      bytes += f.size();
    }
    return out;
  }

  /** Unseen files of the folder, in discovery order, split by whether they have settled; reports changed files. */
  private Listing listNewFiles() {
    String prefix = folder.key().isEmpty() ? "" : folder.key() + "/";
    long settledBefore = clock.millis() - settleMs;
    List<FileEntry> out = new ArrayList<>();
    List<FileEntry> young = new ArrayList<>();
    java.util.Set<String> logged = sinkLogKeys();
    try (CloseableIterator<ObjectStatus> it = folder.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        FileEntry f = new FileEntry(s.key(), s.size(), s.modificationTime());
        if (isHidden(s.key().substring(prefix.length())) || (logged != null && !logged.contains(s.key()))) {
          continue;
        }
        FileEntry taken = seen.taken(f.key());
        if (taken != null) {
          reportIfChanged(taken, f);
        } else if (seen.isNew(f)) {
          (f.modificationTime() > settledBefore ? young : out).add(f);
        }
      }
    }
    out.sort(options.latestFirst() ? FileEntry.NEWEST_FIRST : FileEntry.OLDEST_FIRST);
    settling = !young.isEmpty();
    return new Listing(out, young);
  }

  /**
   * The files a file sink's log ({@code _spark_metadata}) names when the folder is a file sink's output, else
   * null: as in Spark, only logged files are data, so a sink's crashed attempts are never read.
   */
  private java.util.Set<String> sinkLogKeys() {
    dev.sluice.ingestion.internal.sink.files.FileSinkLog log =
        new dev.sluice.ingestion.internal.sink.files.FileSinkLog(folder.store(), folder.key());
    if (!log.exists()) {
      return null;
    }
    java.util.Set<String> out = new java.util.HashSet<>();
    log.files().forEach(e -> log.keyOf(e).ifPresent(out::add));
    return out;
  }

  /** Once per change and run: the new content of a taken file is never read, so it must not go unnoticed. */
  private void reportIfChanged(FileEntry taken, FileEntry now) {
    if (taken.size() == now.size() && taken.modificationTime() == now.modificationTime()) {
      return;
    }
    if (now.equals(reportedChanges.put(now.key(), now))) {
      return;
    }
    metrics.increment(FileSourceMetrics.FILES_CHANGED_AFTER_READ);
    LOG.warn(FileSourceErrors.changedAfterRead(folder.store().uriOf(now.key()).toString(), taken, now));
  }

  /** True if any folder or file name of the relative path starts with '_' or '.'. */
  static boolean isHidden(String relativePath) {
    for (String name : relativePath.split("/")) {
      if (name.startsWith("_") || name.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Batch getBatch(Optional<SourceOffset> start, SourceOffset end) {
    long from = OffsetJson.value(start, OFFSET_FIELD, -1);
    long to = OffsetJson.value(end, OFFSET_FIELD);
    List<FileEntry> files = new ArrayList<>();
    for (long id = from + 1; id <= to; id++) {
      files.addAll(log.batch(id));
    }
    Batch.Builder rows = Batch.builder(layout.schema());
    if (files.size() < 2) {
      files.forEach(f -> {
        List<Row> part = new ArrayList<>();
        read(f, part);
        rows.addAll(part);
      });
      return rows.build();
    }
    // Files are parsed in parallel (parsing dominates reading JSON and CSV), a group of PARSE_THREADS at a time so
    // that only that many files' rows wait in the heap; rows stay in file order.
    for (int first = 0; first < files.size(); first += PARSE_THREADS) {
      files.subList(first, Math.min(files.size(), first + PARSE_THREADS)).parallelStream().map(f -> {
        List<Row> part = new ArrayList<>();
        read(f, part);
        return new Part(part, Batch.heapEstimate(part));
      }).toList().forEach(p -> rows.addAll(p.rows(), p.heapBytes()));
    }
    return rows.build();
  }

  /** One file's rows, with their heap measured by the thread that parsed them. */
  private record Part(List<Row> rows, long heapBytes) {}

  /** The files logged for ids in (start, end]; for tests and progress reports. */
  List<String> files(Optional<SourceOffset> start, SourceOffset end) {
    List<String> out = new ArrayList<>();
    for (long id = OffsetJson.value(start, OFFSET_FIELD, -1) + 1; id <= OffsetJson.value(end, OFFSET_FIELD); id++) {
      log.batch(id).forEach(f -> out.add(f.key()));
    }
    return out;
  }

  private void read(FileEntry f, List<Row> out) {
    String uri = folder.store().uriOf(f.key()).toString();
    try {
      switch (options.format()) {
        case "json" -> textReader(new JsonLineParser(layout.dataSchema(), options.rescue()), false)
            .read(content(f, uri), uri, out);
        case "csv" -> textReader(new CsvLineParser(layout.dataSchema(), options.csv(), options.rescue()),
            options.csv().header()).read(content(f, uri), uri, out);
        default -> readParquet(f, uri, out);
      }
    } catch (RuntimeException e) {
      if (!isMissing(e)) {
        throw e;
      }
      if (!options.ignoreMissingFiles()) {
        throw FileSourceErrors.missingFile(uri, e);
      }
      metrics.increment(FileSourceMetrics.MISSING_FILES_SKIPPED);
      LOG.warn("Input file {} was deleted before it was read; skipped (ignoreMissingFiles=true): its rows are not"
          + " ingested", uri);
    }
  }

  private TextFileReader textReader(RecordParser parser, boolean header) {
    return new TextFileReader(parser, layout, options.failFast(), header, metrics);
  }

  private byte[] content(FileEntry f, String uri) {
    return Compression.decode(f.key(), uri, folder.store().read(f.key()));
  }

  private static boolean isMissing(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ObjectNotFoundException) {
        return true;
      }
    }
    return false;
  }

  private void readParquet(FileEntry f, String uri, List<Row> out) {
    try (CloseableIterator<Row> it = ParquetDataReader.read(folder.store(), f.key(), f.size(), layout.dataSchema())) {
      while (it.hasNext()) {
        out.add(layout.row(it.next().toArray(), uri, null, null));
      }
    } catch (RuntimeException e) {
      if (isMissing(e) || !isUnreadableParquet(e)) {
        throw e;
      }
      metrics.increment(FileSourceMetrics.MALFORMED_RECORDS);
      String error = "not a readable Parquet file: " + e.getMessage();
      if (options.failFast()) {
        throw new MalformedRecordException(uri, 0, error);
      }
      if (!layout.keepsCorrupt()) {
        metrics.increment(FileSourceMetrics.MALFORMED_NOT_KEPT);
        LOG.warn("Input file {} is {}; the rows after the last readable one are not ingested and, as the declared"
            + " schema has no corrupt-record column, no row records it. Declare _corrupt_record and _corrupt_error"
            + " to keep a row for it, or use mode=FAILFAST", uri, error);
        return;
      }
      // Rows decoded before the failure are kept; the corrupt row records the rest of the file was lost.
      out.add(layout.row(new Object[0], uri, null, error));
    }
  }

  /** Storage failures (retryable) propagate; only what the Parquet reader itself refused marks the file corrupt. */
  private static boolean isUnreadableParquet(RuntimeException e) {
    if (!(e instanceof StorageException)) {
      return true;
    }
    String message = String.valueOf(e.getMessage());
    return e.getClass() == StorageException.class
        && (message.startsWith("Opening Parquet data file") || message.startsWith("Reading a row group"))
        && !(e.getCause() instanceof StorageException);
  }

  @Override
  public void commit(SourceOffset end) {
    long id = OffsetJson.value(end, OFFSET_FIELD);
    lastCommitted = Math.max(lastCommitted, id);
    if (cleaner.isPresent() && id > lastCleaned) {
      List<FileEntry> files = new ArrayList<>();
      for (Map.Entry<Long, List<FileEntry>> e : log.batches().headMap(id, true).tailMap(lastCleaned, false).entrySet()) {
        files.addAll(e.getValue());
      }
      cleaner.get().clean(files);
      lastCleaned = id;
    }
  }

  @Override
  public String description() {
    return "FileSource[" + options.format() + ", " + folder + "]";
  }
}
