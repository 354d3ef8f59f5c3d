package dev.sluice.ingestion.source.internal.delta;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.internal.spill.ReadAhead;
import dev.sluice.ingestion.internal.spill.ReplayedRows;
import dev.sluice.ingestion.source.ReadLimit;
import dev.sluice.ingestion.source.Source;
import dev.sluice.ingestion.source.SourceOffset;
import dev.sluice.ingestion.source.internal.delta.DeltaSourceOptions.Start;
import dev.sluice.table.ChangeFeed;
import dev.sluice.table.DataFile;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.BlockRow;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Another Delta table as a stream, with Spark's {@code DeltaSource} semantics: without a starting
 * option, the first batches read the snapshot at the version current at the first batch (file by
 * file), then every later commit's added files; {@code dataChange=false} commits (OPTIMIZE) are
 * skipped; a commit that removes data fails the query unless {@code skipChangeCommits} skips it.
 * With {@code readChangeFeed} rows come from the change data feed instead, and a version's changes
 * are never split across batches (a batch may exceed the file limit by one version); the initial
 * snapshot, read file by file, becomes {@code insert} rows of the snapshot's version.
 *
 * <p>The first batch of a query started with {@code startingVersion} or {@code startingTimestamp}
 * is empty: its offset records the resolved version, so that a restart never resolves
 * {@code latest} or a timestamp again. The first batch of a snapshot start never goes past the
 * snapshot, so its end offset alone tells which snapshot it read. Versions without rows for the
 * stream (compaction, skipped change commits) still advance the offset, so they are read once.
 * {@code maxRecordsPerTrigger} does not apply (as in Spark): a file is the smallest unit taken.
 */
final class DeltaSource implements Source {
  static final String CHANGE_TYPE = "_change_type";
  static final String INSERT = "insert";

  private final Table table;
  private final DeltaSourceOptions options;
  private final Snapshot schemaSnapshot;
  private final String tableId;
  private final StructType schema;
  /** The table columns read: all of them, or those of the {@code columns} option, in table order. */
  private final StructType dataSchema;
  /** Whether the table's columns can be read decoded column by column ({@link DecodedRows#supports}). */
  private final boolean decodable;
  private final String description;
  private final TableCommits commits;
  private Long availableNowEnd;
  private DeltaSourceOffset first;

  DeltaSource(Table table, DeltaSourceOptions options) {
    this.table = table;
    this.options = options;
    this.description = "DeltaSource[" + table.uri() + "]";
    this.schemaSnapshot = table.latestSnapshot();
    this.tableId = schemaSnapshot.tableId();
    if (options.readChangeFeed() && !"true".equalsIgnoreCase(
        schemaSnapshot.properties().get("delta.enableChangeDataFeed"))) {
      throw DeltaSourceErrors.changeFeedDisabled(description);
    }
    this.dataSchema = options.columns().map(c -> columnsOf(schemaSnapshot.schema(), c)).orElse(schemaSnapshot.schema());
    this.schema = options.readChangeFeed()
        ? dataSchema.add(CHANGE_TYPE, PrimitiveType.STRING)
            .add(ChangeFeed.COMMIT_VERSION, PrimitiveType.LONG).add(ChangeFeed.COMMIT_TIMESTAMP, PrimitiveType.TIMESTAMP)
        : dataSchema;
    this.decodable = dataSchema.fields().stream().allMatch(f -> DecodedRows.supports(f.type()));
    this.commits = new TableCommits(table, schemaSnapshot, description);
  }

  /** The fields of {@code table} named in {@code names} (case-insensitively), in table order. */
  private StructType columnsOf(StructType table, List<String> names) {
    java.util.Set<String> wanted = new java.util.HashSet<>();
    for (String name : names) {
      if (table.fields().stream().noneMatch(f -> f.name().equalsIgnoreCase(name))) {
        throw DeltaSourceErrors.unknownColumn(description, name, table.fieldNames());
      }
      wanted.add(name.toLowerCase(java.util.Locale.ROOT));
    }
    return new StructType(table.fields().stream()
        .filter(f -> wanted.contains(f.name().toLowerCase(java.util.Locale.ROOT))).toList());
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public void prepareForAvailableNow() {
    availableNowEnd = commits.latestVersion();
  }

  @Override
  public Optional<SourceOffset> latestOffset(Optional<SourceOffset> start, ReadLimit limit) {
    long last = availableNowEnd != null ? availableNowEnd : commits.latestVersion();
    Admission admission = new Admission(Math.min(options.maxFilesPerTrigger(), limit.maxFiles()),
        Math.min(options.maxBytesPerTrigger(), limit.maxBytes()));
    if (start.isEmpty()) {
      DeltaSourceOffset initial = firstOffset(last);
      return Optional.of((initial.isStartingVersion() ? takeSnapshot(initial, admission) : initial).toSourceOffset());
    }
    DeltaSourceOffset from = parse(start.get());
    DeltaSourceOffset end = from.isStartingVersion() ? takeSnapshot(from, admission) : from;
    if (!end.isStartingVersion()) {
      end = takeCommits(end, last, admission);
    }
    return end.equals(from) ? Optional.empty() : Optional.of(end.toSourceOffset());
  }

  /** Where the query starts: before the initial snapshot, or before the starting commit. */
  private DeltaSourceOffset firstOffset(long last) {
    if (first == null) {
      first = options.start() instanceof Start.InitialSnapshot
          ? DeltaSourceOffset.beforeSnapshot(tableId, last)
          : DeltaSourceOffset.beforeCommit(tableId, startingVersion(options.start(), last));
    }
    return first;
  }

  private long startingVersion(Start start, long last) {
    if (start instanceof Start.AtVersion v) {
      if (v.version() > last) {
        throw DeltaSourceErrors.startAfterLatest(description, v.version(), last);
      }
      return v.version();
    }
    if (start instanceof Start.AtTimestamp t) {
      return firstCommitAtOrAfter(t.timestamp(), last);
    }
    return last + 1; // latest: only commits after the current one
  }

  private long firstCommitAtOrAfter(Instant timestamp, long last) {
    for (Map.Entry<Long, Long> e : commits.timeline().entrySet()) {
      if (e.getValue() >= timestamp.toEpochMilli() && e.getKey() <= last) {
        return e.getKey();
      }
    }
    return last + 1;
  }

  /** Takes snapshot files after {@code from} within the budget; when all are taken, points before the next commit. */
  private DeltaSourceOffset takeSnapshot(DeltaSourceOffset from, Admission admission) {
    List<DataFile> files = commits.snapshotFiles(from.reservoirVersion());
    DeltaSourceOffset end = from;
    for (long i = from.index() + 1; i < files.size(); i++) {
      if (!admission.admit(1, files.get((int) i).size())) {
        return end;
      }
      end = end.withIndex(i);
    }
    return DeltaSourceOffset.beforeCommit(tableId, from.reservoirVersion() + 1);
  }

  /** Takes commit files after {@code from} up to version {@code last} within the budget. */
  private DeltaSourceOffset takeCommits(DeltaSourceOffset from, long last, Admission admission) {
    DeltaSourceOffset end = from;
    for (long v = from.reservoirVersion(); v <= last; v++) {
      CommitChanges c = commits.commit(v);
      if (options.readChangeFeed()) {
        if (c.hasChanges() && !admission.admit(c.changeFiles(), c.changeBytes())) {
          return end;
        }
      } else {
        List<DataFile> files = filesOf(c);
        for (long i = v == from.reservoirVersion() ? from.index() + 1 : 0; i < files.size(); i++) {
          if (!admission.admit(1, files.get((int) i).size())) {
            return end;
          }
          end = new DeltaSourceOffset(tableId, v, i, false);
        }
      }
      end = DeltaSourceOffset.beforeCommit(tableId, v + 1);
    }
    return end;
  }

  /** The files a stream of appends takes from a commit, applying the change-commit rule. */
  private List<DataFile> filesOf(CommitChanges c) {
    if (!c.removesData()) {
      return c.addedFiles();
    }
    if (options.skipChangeCommits()) {
      return List.of();
    }
    throw DeltaSourceErrors.changeCommit(description, c.version(), c.operation());
  }

  @Override
  public Batch getBatch(Optional<SourceOffset> start, SourceOffset end) {
    DeltaSourceOffset to = parse(end);
    DeltaSourceOffset from = start.isPresent() ? parse(start.get()) : startOfFirstBatch(to);
    Batch.Builder rows = Batch.builder(schema);
    DeltaSourceOffset next = from;
    if (from.isStartingVersion()) {
      if (options.rereadFiles() && endsWithSnapshot(from, to)) {
        Optional<Batch> replayed = replayedSnapshot(from, to);
        if (replayed.isPresent()) {
          return replayed.get();
        }
      }
      readSnapshot(from, to, rows);
      if (to.isStartingVersion()) {
        return rows.build();
      }
      next = DeltaSourceOffset.beforeCommit(tableId, from.reservoirVersion() + 1);
    }
    if (options.readChangeFeed()) {
      readChangeFeed(next.reservoirVersion(), to.reservoirVersion() - 1, rows);
    } else {
      readCommits(next, to, rows);
    }
    return rows.build();
  }

  /** Whether a batch that starts in {@code from}'s snapshot holds nothing after it (no commit's rows). */
  private static boolean endsWithSnapshot(DeltaSourceOffset from, DeltaSourceOffset to) {
    return to.isStartingVersion()
        || to.reservoirVersion() == from.reservoirVersion() + 1 && to.index() == DeltaSourceOffset.BASE_INDEX;
  }

  /** The first batch's start, known from its end alone (see the class comment). */
  private DeltaSourceOffset startOfFirstBatch(DeltaSourceOffset end) {
    if (end.isStartingVersion()) {
      return DeltaSourceOffset.beforeSnapshot(tableId, end.reservoirVersion());
    }
    if (options.start() instanceof Start.InitialSnapshot) {
      return DeltaSourceOffset.beforeSnapshot(tableId, end.reservoirVersion() - 1);
    }
    return end;
  }

  private void readSnapshot(DeltaSourceOffset from, DeltaSourceOffset to, Batch.Builder out) {
    readFiles(snapshotFiles(from, to), snapshotColumns(from), out);
  }

  /** The files of the snapshot part of a batch (all of the snapshot after {@code from} when {@code to} is past it). */
  private List<DataFile> snapshotFiles(DeltaSourceOffset from, DeltaSourceOffset to) {
    List<DataFile> files = commits.snapshotFiles(from.reservoirVersion());
    long lastIndex = to.isStartingVersion() ? to.index() : files.size() - 1;
    return files.subList((int) from.index() + 1, (int) lastIndex + 1);
  }

  /** The change feed's columns of a snapshot row (an insert at the snapshot's version), or null without the feed. */
  private Object[] snapshotColumns(DeltaSourceOffset from) {
    if (!options.readChangeFeed()) {
      return null;
    }
    Snapshot snapshot = commits.snapshot(from.reservoirVersion());
    return new Object[] {INSERT, snapshot.version(), snapshot.timestamp()};
  }

  /**
   * A batch of snapshot files whose rows every pass reads from the files again ({@code rereadFiles}), when each file's
   * stats give its record count; empty otherwise (the rows are then copied as usual).
   */
  private Optional<Batch> replayedSnapshot(DeltaSourceOffset from, DeltaSourceOffset to) {
    List<DataFile> files = List.copyOf(snapshotFiles(from, to));
    long count = 0;
    for (DataFile f : files) {
      if (f.numRecords().isEmpty()) {
        return Optional.empty();
      }
      count += f.numRecords().getAsLong();
    }
    if (count > Integer.MAX_VALUE) {
      return Optional.empty();
    }
    Object[] extra = snapshotColumns(from);
    return Optional.of(new Batch(schema, new ReplayedRows(schema, (int) count, (Batch.RowMapper mapper) -> {
      FileRows rows = new FileRows(files, extra);
      return new ReadAhead(mapper == null ? rows : rows.mapped(mapper), 1024, rows::close);
    })));
  }

  private void readCommits(DeltaSourceOffset from, DeltaSourceOffset to, Batch.Builder out) {
    List<DataFile> all = new ArrayList<>();
    for (long v = from.reservoirVersion(); v <= to.reservoirVersion(); v++) {
      if (v == to.reservoirVersion() && to.index() == DeltaSourceOffset.BASE_INDEX) {
        break;
      }
      List<DataFile> files = filesOf(commits.commit(v));
      long firstIndex = v == from.reservoirVersion() ? from.index() + 1 : 0;
      long lastIndex = v == to.reservoirVersion() ? to.index() : files.size() - 1;
      for (long i = firstIndex; i <= lastIndex; i++) {
        all.add(files.get((int) i));
      }
    }
    readFiles(all, null, out);
  }

  /**
   * The rows of {@code files} in order: decoded column by column into the batch where the table allows it
   * ({@link #readDecoded}), else several files decoded into rows on another thread while {@code out} takes them.
   */
  private void readFiles(List<DataFile> files, Object[] extraColumns, Batch.Builder out) {
    if (extraColumns == null && decodable) {
      readDecoded(files, out);
      return;
    }
    FileRows rows = new FileRows(files, extraColumns);
    Iterator<Row> it = files.size() > 1 && ReadAhead.worthIt()
        ? new ReadAhead((ReadAhead.Blocks) rows, 1024, rows::close) : rows;
    try {
      while (it.hasNext()) {
        out.add(it.next());
      }
    } finally {
      if (it == rows) {
        rows.close();
      }
    }
  }

  /**
   * The rows of {@code files} in order, each file decoded column by column straight into the batch's columns when
   * it can be (no row or value object made: reading a silver batch of bronze files made every value an object on
   * one thread and took it apart into primitives again on another), else as rows.
   */
  private void readDecoded(List<DataFile> files, Batch.Builder out) {
    for (DataFile file : files) {
      Optional<CloseableIterator<DecodedRows>> runs = schemaSnapshot.decodedRowsOf(file, dataSchema);
      if (runs.isPresent()) {
        try (CloseableIterator<DecodedRows> it = runs.get()) {
          while (it.hasNext()) {
            out.addColumns(it.next());
          }
        }
      } else {
        try (CloseableIterator<Row> it = schemaSnapshot.rowsOf(file, dataSchema)) {
          while (it.hasNext()) {
            out.add(it.next());
          }
        }
      }
    }
  }

  /** The rows of files one after the other, each file open only while it is read. */
  private final class FileRows implements Iterator<Row>, ReadAhead.Blocks {
    private final Iterator<DataFile> files;
    private final Object[] extraColumns;
    private CloseableIterator<Row> current;
    /** The current file's decoded runs (a file read column by column), instead of {@link #current}. */
    private CloseableIterator<DecodedRows> runs;
    private DecodedRows run;
    private int runNext;
    private Row[] pending = new Row[0];
    private int pendingNext;

    FileRows(List<DataFile> files, Object[] extraColumns) {
      this.files = files.iterator();
      this.extraColumns = extraColumns;
    }

    @Override
    public boolean hasNext() {
      if (pendingNext < pending.length) {
        return true;
      }
      Row[] block = new Row[1024];
      int n = next(block);
      pending = n == block.length ? block : java.util.Arrays.copyOf(block, n);
      pendingNext = 0;
      return n > 0;
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return pending[pendingNext++];
    }

    /**
     * Fills {@code into}: from a decoded run, a block of rows made column by column (a tight loop per column, rows as
     * views of the block's columns), else row by row from the row reader.
     */
    @Override
    public int next(Row[] into) {
      int n = 0;
      while (n < into.length && advance()) {
        if (run != null) {
          int take = Math.min(into.length - n, run.size() - runNext);
          int width = run.schema().size();
          Object[][] block = new Object[width + (extraColumns == null ? 0 : extraColumns.length)][];
          for (int c = 0; c < width; c++) {
            block[c] = new Object[take];
            run.box(c, runNext, take, block[c], 0);
          }
          for (int c = width; c < block.length; c++) {
            block[c] = new Object[take];
            java.util.Arrays.fill(block[c], extraColumns[c - width]);
          }
          for (int i = 0; i < take; i++) {
            into[n++] = new BlockRow(block, i);
          }
          runNext += take;
        } else {
          Row r = current.next();
          into[n++] = extraColumns == null ? r : append(r, extraColumns);
        }
      }
      return n;
    }

    /** Moves to the next run or file with rows left; false at the end. */
    private boolean advance() {
      while (true) {
        if (run != null && runNext < run.size()) {
          return true;
        }
        run = null;
        if (runs != null && runs.hasNext()) {
          run = runs.next();
          runNext = 0;
          continue;
        }
        if (current != null && current.hasNext()) {
          return true;
        }
        close();
        if (!files.hasNext()) {
          return false;
        }
        DataFile file = files.next();
        Optional<CloseableIterator<DecodedRows>> decoded = decodable ? schemaSnapshot.decodedRowsOf(file, dataSchema)
            : Optional.empty();
        if (decoded.isPresent()) {
          runs = decoded.get();
        } else {
          current = schemaSnapshot.rowsOf(file, dataSchema);
        }
      }
    }

    void close() {
      run = null;
      if (current != null) {
        CloseableIterator<Row> c = current;
        current = null;
        c.close();
      }
      if (runs != null) {
        CloseableIterator<DecodedRows> r = runs;
        runs = null;
        r.close();
      }
    }
  }

  private static Row append(Row row, Object[] extra) {
    Object[] values = new Object[row.size() + extra.length];
    for (int i = 0; i < row.size(); i++) {
      values[i] = row.get(i);
    }
    System.arraycopy(extra, 0, values, row.size(), extra.length);
    return Row.of(values);
  }

  /** The change feed of whole versions {@code first..last}, shaped as this source's schema. */
  private void readChangeFeed(long firstVersion, long lastVersion, Batch.Builder out) {
    boolean any = false;
    for (long v = firstVersion; v <= lastVersion; v++) {
      any |= commits.commit(v).hasChanges();
    }
    if (!any) {
      return;
    }
    ChangeFeed feed = table.changes(firstVersion, lastVersion);
    if (options.columns().isPresent()) {
      feed = feed.select(dataSchema);
    }
    int[] positions = positionsIn(feed.schema());
    try (CloseableIterator<Row> it = feed.rows()) {
      while (it.hasNext()) {
        Row r = it.next();
        Object[] values = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
          values[i] = r.get(positions[i]);
        }
        out.add(Row.of(values));
      }
    }
  }

  /** Where each column of this source's schema is in {@code feedSchema} (a later, wider schema may reorder). */
  private int[] positionsIn(StructType feedSchema) {
    int[] positions = new int[schema.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = feedSchema.indexOf(schema.field(i).name());
    }
    return positions;
  }

  private DeltaSourceOffset parse(SourceOffset offset) {
    DeltaSourceOffset parsed = DeltaSourceOffset.parse(offset, description);
    if (!parsed.reservoirId().equals(tableId)) {
      throw DeltaSourceErrors.otherTable(description, parsed.reservoirId(), tableId);
    }
    return parsed;
  }
}
