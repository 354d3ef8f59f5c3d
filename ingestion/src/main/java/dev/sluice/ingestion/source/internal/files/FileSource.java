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
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Streams the files of a folder (or S3 prefix): each batch takes new files in (modification time,
 * path) order within the read limits and records them in its {@link FileLog}, so that a batch's
 * files are the same after a restart. Names starting with '_' or '.' (files or folders) are never
 * data. Writers must publish files atomically (as object stores and rename-into-place do).
 */
final class FileSource implements Source {
  static final String OFFSET_FIELD = "logOffset";

  private final Location folder;
  private final FileSourceOptions options;
  private final StructType dataSchema;
  private final RowLayout layout;
  private final FileLog log;
  private final SeenFiles seen;
  private final Optional<FileCleaner> cleaner;
  private long lastCommitted = -1;
  private long lastCleaned = -1;
  private List<FileEntry> availableNow;

  FileSource(Location folder, FileSourceOptions options, StructType dataSchema, Location metadata,
      Optional<FileCleaner> cleaner, int compactInterval) {
    this.folder = folder;
    this.options = options;
    this.dataSchema = dataSchema;
    this.layout = new RowLayout(dataSchema, options.includeSourceColumn(), options.rescue().column());
    this.log = new FileLog(metadata, compactInterval);
    this.seen = new SeenFiles(options.maxFileAgeMs());
    this.cleaner = cleaner;
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
    List<FileEntry> chosen = choose(availableNow != null ? availableNow : listNewFiles(), limit);
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
    availableNow = listNewFiles();
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

  /** Unseen files of the folder, in discovery order. */
  private List<FileEntry> listNewFiles() {
    String prefix = folder.key().isEmpty() ? "" : folder.key() + "/";
    List<FileEntry> out = new ArrayList<>();
    try (CloseableIterator<ObjectStatus> it = folder.store().list(prefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        FileEntry f = new FileEntry(s.key(), s.size(), s.modificationTime());
        if (!isHidden(s.key().substring(prefix.length())) && seen.isNew(f)) {
          out.add(f);
        }
      }
    }
    out.sort(options.latestFirst() ? FileEntry.NEWEST_FIRST : FileEntry.OLDEST_FIRST);
    return out;
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
    List<Row> rows = new ArrayList<>();
    if (files.size() < 2) {
      files.forEach(f -> read(f, rows));
    } else {
      // Files are parsed in parallel (parsing dominates reading JSON and CSV); rows stay in file order.
      files.parallelStream().map(f -> {
        List<Row> part = new ArrayList<>();
        read(f, part);
        return part;
      }).toList().forEach(rows::addAll);
    }
    return new Batch(layout.schema(), rows);
  }

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
    switch (options.format()) {
      case "json" -> new TextFileReader(new JsonLineParser(dataSchema, options.rescue()), layout, options.failFast(), false)
          .read(folder.store().read(f.key()), uri, out);
      case "csv" -> new TextFileReader(new CsvLineParser(dataSchema, options.csv(), options.rescue()), layout, options.failFast(),
          options.csv().header()).read(folder.store().read(f.key()), uri, out);
      default -> readParquet(f, uri, out);
    }
  }

  private void readParquet(FileEntry f, String uri, List<Row> out) {
    try (CloseableIterator<Row> it = ParquetDataReader.read(folder.store(), f.key(), f.size(), dataSchema)) {
      while (it.hasNext()) {
        out.add(layout.row(it.next().toArray(), uri, null, null));
      }
    } catch (RuntimeException e) {
      if (!isUnreadableParquet(e)) {
        throw e;
      }
      if (options.failFast()) {
        throw new MalformedRecordException(uri, 0, "not a readable Parquet file: " + e.getMessage());
      }
      // Rows decoded before the failure are kept; the corrupt row records the rest of the file was lost.
      out.add(layout.row(new Object[0], uri, null, "not a readable Parquet file: " + e.getMessage()));
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
