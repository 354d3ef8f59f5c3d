package dev.sluice.table.internal;

import dev.sluice.table.DataFile;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.exceptions.SluiceTableException;
import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.dv.DeletedRows;
import dev.sluice.table.internal.dv.DeletionVectorDescriptor;
import dev.sluice.table.internal.dv.DeletionVectors;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.internal.replay.FilePaths;
import dev.sluice.table.internal.scan.StatsJson;
import dev.sluice.table.internal.parquet.DictionaryHints;
import dev.sluice.table.internal.parquet.PageSkipping;
import dev.sluice.table.data.DecodedRows;
import dev.sluice.table.internal.parquet.ColumnarFileReader;
import dev.sluice.table.internal.parquet.ParquetDataReader;
import dev.sluice.table.internal.partition.FilePruner;
import dev.sluice.table.internal.partition.PartitionValues;
import dev.sluice.table.internal.replay.SharedSnapshots;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.scan.FileSkipping;
import dev.sluice.table.internal.txn.CommitPolicy;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.storage.StoragePaths;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** Everything a table's operations share: its log, clock, commit policy, and file-level helpers. */
public final class TableContext {
  // Parquet writers start a page at 20,000 rows at the latest: a file of fewer rows has one page per column.
  private static final long ONE_PAGE_OF_ROWS = 20_000;
  private final DeltaLog log;
  private final Clock clock;
  private final CommitPolicy policy;
  private final URI tableRoot;
  private SnapshotState cached;
  /** Shared by every write of this table object: the columns whose dictionaries its recent files gave up. */
  private final DictionaryHints dictionaryHints = DictionaryHints.create();

  public TableContext(DeltaLog log) {
    this(log, Clock.systemUTC(), CommitPolicy.DEFAULT);
  }

  public TableContext(DeltaLog log, Clock clock, CommitPolicy policy) {
    this.log = log;
    this.tableRoot = FilePaths.rootOf(log.store().uriOf(log.tablePath()));
    this.clock = clock;
    this.policy = policy;
  }

  public DeltaLog log() {
    return log;
  }

  /** What this table's data files taught about dictionary encoding, for its next files. */
  public DictionaryHints dictionaryHints() {
    return dictionaryHints;
  }

  /**
   * The latest snapshot, advanced from the previous one by reading only the commits since (writers
   * that commit every few seconds would otherwise re-read the whole JSON tail each time).
   */
  public synchronized SnapshotState latestState() {
    if (cached != null) {
      cached = log.update(cached);
    } else {
      SnapshotState shared = SharedSnapshots.get(log.store(), log.tablePath());
      cached = shared == null ? log.snapshot() : log.updateFromShared(shared);
    }
    SharedSnapshots.offer(log.store(), log.tablePath(), cached);
    return cached;
  }

  public Clock clock() {
    return clock;
  }

  /** A new transaction reading {@code snapshot} (null when creating the table). */
  public OptimisticTransaction newTransaction(SnapshotState snapshot) {
    return new OptimisticTransaction(log, snapshot, this::canonicalPath, policy, clock);
  }

  /** The file identity replay uses for a log path (relative and absolute spellings of one file match). */
  public String canonicalPath(String logPath) {
    return FilePaths.canonicalize(tableRoot, logPath);
  }

  /** The object key of a path as written in the log (relative and URI-encoded, or an absolute URI). */
  public String keyOf(String logPath) {
    if (PartitionValues.isAbsoluteLogPath(logPath)) {
      URI uri = URI.create(logPath);
      return log.store().keyOf(uri).orElseThrow(() -> new StorageException("The log of " + log.tablePath()
          + " refers to " + logPath + ", which is outside the table's store " + log.store().root()));
    }
    return StoragePaths.join(log.tablePath(), PartitionValues.fromLogPath(logPath));
  }

  public DataFile dataFile(AddFile add) {
    OptionalLong records = StatsJson.numRecords(add.stats());
    if (records.isPresent() && add.deletionVectorJson() != null) {
      // numRecords counts the physical rows; the deletion vector's are gone
      records = OptionalLong.of(records.getAsLong()
          - DeletionVectorDescriptor.parse(add.deletionVectorJson(), add.path()).cardinality());
    }
    return new DataFile(keyOf(add.path()), add.path(), add.partitionValues(), add.size(), add.modificationTime(),
        records, add.stats(), add.deletionVectorJson());
  }

  /** The live files that may hold rows matching {@code predicate}. */
  public List<AddFile> prune(SnapshotState state, Predicate predicate) {
    return FileSkipping.prune(state.schema(), state.metadata().partitionColumns(), state.activeFiles().values(), predicate);
  }

  /** Whether {@code add} may hold rows matching {@code predicate} (by partition values and stats). */
  public boolean mightMatch(SnapshotState state, AddFile add, Predicate predicate) {
    return !FileSkipping.prune(state.schema(), state.metadata().partitionColumns(), List.of(add), predicate).isEmpty();
  }

  /**
   * Whether a file (e.g. one a concurrent commit added) may hold rows matching {@code predicate}; the predicate is
   * bound once, on first use, however many files are asked about.
   */
  public java.util.function.Predicate<AddFile> fileMatcher(SnapshotState state, Predicate predicate) {
    return FileSkipping.matcher(state.schema(), state.metadata().partitionColumns(), predicate);
  }

  /** The rows of one data file, shaped as {@code readSchema}; partition columns come from the log. */
  public CloseableIterator<Row> readRows(SnapshotState state, AddFile add, StructType readSchema) {
    StructType dataSchema = dataSchema(state, readSchema);
    CloseableIterator<Row> data = openDataFile(state, add, dataSchema, true /* skip deleted rows */);
    return dataSchema.size() == readSchema.size() ? data : data.map(withPartitionValues(add, readSchema, dataSchema));
  }

  /**
   * The rows of one data file decoded column by column ({@link ColumnarFileReader}), those its deletion vector
   * deletes left out, or empty when they can't come so: partition columns, or a column type or encoding the columnar
   * reader leaves to the row reader. The caller closes the iterator.
   */
  public java.util.Optional<CloseableIterator<DecodedRows>> readDecoded(SnapshotState state, AddFile add,
      StructType readSchema) {
    if (dataSchema(state, readSchema).size() != readSchema.size()) {
      return java.util.Optional.empty();
    }
    String key = keyOf(add.path());
    java.util.Optional<CloseableIterator<DecodedRows>> runs =
        open(state, add, () -> ColumnarFileReader.open(log.store(), key, add.size(), readSchema));
    if (runs.isEmpty() || add.deletionVectorJson() == null) {
      return runs;
    }
    DeletedRows deleted = deletedRows(add);
    return java.util.Optional.of(withoutDeleted(runs.get(), deleted));
  }

  /** Runs without the rows {@code deleted} names (row indexes in the file), a run's positions counted across runs. */
  private static CloseableIterator<DecodedRows> withoutDeleted(CloseableIterator<DecodedRows> runs,
      DeletedRows deleted) {
    return new CloseableIterator<>() {
      private long first;

      @Override
      public boolean hasNext() {
        return runs.hasNext();
      }

      @Override
      public DecodedRows next() {
        DecodedRows run = runs.next();
        int[] live = new int[run.size()];
        int n = 0;
        for (int i = 0; i < run.size(); i++) {
          if (!deleted.contains(first + i)) {
            live[n++] = i;
          }
        }
        first += run.size();
        return n == run.size() ? run : run.select(live, n);
      }

      @Override
      public void close() {
        runs.close();
      }
    };
  }

  /**
   * The rows of one data file with their row indexes (positions in the Parquet file, from 0), rows its deletion
   * vector deletes left out: what a deletion vector names. The caller closes the iterator.
   */
  public CloseableIterator<IndexedRow> readIndexedRows(SnapshotState state, AddFile add, StructType readSchema) {
    StructType dataSchema = dataSchema(state, readSchema);
    DeletedRows deleted = deletedRows(add);
    CloseableIterator<Row> data = openDataFile(state, add, dataSchema, false /* skip deleted rows */);
    java.util.function.Function<Row, Row> shape = dataSchema.size() == readSchema.size() ? r -> r
        : withPartitionValues(add, readSchema, dataSchema);
    return new CloseableIterator<>() {
      private long index = -1;
      private IndexedRow next;

      @Override
      public boolean hasNext() {
        while (next == null && data.hasNext()) {
          Row r = data.next();
          if (!deleted.contains(++index)) {
            next = new IndexedRow(index, shape.apply(r));
          }
        }
        return next != null;
      }

      @Override
      public IndexedRow next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        IndexedRow out = next;
        next = null;
        return out;
      }

      @Override
      public void close() {
        data.close();
      }
    };
  }

  /**
   * The rows of one data file at the row indexes in {@code rows} (positions in the Parquet file), those its deletion
   * vector deletes left out; the other rows are skipped unconverted. The caller closes the iterator.
   */
  public CloseableIterator<IndexedRow> readIndexedRows(SnapshotState state, AddFile add, StructType readSchema,
      java.util.BitSet rows) {
    StructType dataSchema = dataSchema(state, readSchema);
    java.util.BitSet live = rows;
    if (add.deletionVectorJson() != null) {
      DeletedRows deleted = deletedRows(add);
      live = (java.util.BitSet) rows.clone();
      for (int i = live.nextSetBit(0); i >= 0; i = live.nextSetBit(i + 1)) {
        if (deleted.contains(i)) {
          live.clear(i);
        }
      }
    }
    java.util.BitSet selection = live;
    CloseableIterator<IndexedRow> data = open(state, add,
        () -> ParquetDataReader.readSelected(log.store(), keyOf(add.path()), add.size(), dataSchema, selection));
    if (dataSchema.size() == readSchema.size()) {
      return data;
    }
    java.util.function.Function<Row, Row> shape = withPartitionValues(add, readSchema, dataSchema);
    return data.map(r -> new IndexedRow(r.index(), shape.apply(r.row())));
  }

  /**
   * The files and, per file, the rows (positions in the file) in pages whose page index says they may hold a row
   * matching {@code predicate}, or null when every row may: a file of one page, a predicate naming no data column,
   * or a file without a usable index. The predicate is bound once for both: binding an IN of an increment's ~20,000
   * keys (each literal coerced and sorted) took ~20 ms at C1 speed, and a scan bound it for its files and again for
   * their pages.
   */
  public FileFilter fileFilter(SnapshotState state, Predicate predicate) {
    if (predicate instanceof Predicate.Constant) {
      return new FileFilter(() -> prune(state, predicate), add -> null);
    }
    FilePruner pruner = FilePruner.of(predicate.bind(state.schema()), state.metadata().partitionColumns());
    return new FileFilter(() -> FileSkipping.prune(state.schema(), state.activeFiles().values(), pruner),
        pages(state, predicate, pruner));
  }

  /** What {@link #fileFilter} found: the candidate files, and a file's candidate rows by its page index. */
  public record FileFilter(java.util.function.Supplier<List<AddFile>> files,
      java.util.function.Function<AddFile, java.util.BitSet> pages) {}

  private java.util.function.Function<AddFile, java.util.BitSet> pages(SnapshotState state, Predicate predicate,
      FilePruner pruner) {
    StructType filterColumns = dataColumnsNamed(state, predicate.referencedColumns());
    if (filterColumns == null) {
      return add -> null;
    }
    return add -> {
      OptionalLong records = StatsJson.numRecords(add.stats());
      if (records.isPresent() && records.getAsLong() <= ONE_PAGE_OF_ROWS) {
        return null;
      }
      return open(state, add, () -> PageSkipping.candidateRows(log.store(), keyOf(add.path()), add.size(),
          filterColumns, stats -> pruner.mightMatch(add.partitionValues(), stats)));
    };
  }

  /** The table's data (non-partition) columns among {@code names}, or null for none. */
  private static StructType dataColumnsNamed(SnapshotState state, java.util.Set<String> names) {
    List<StructField> fields = new ArrayList<>();
    for (StructField f : state.schema().fields()) {
      boolean named = names.stream().anyMatch(n -> n.equalsIgnoreCase(f.name()));
      if (named && !containsIgnoreCase(state.metadata().partitionColumns(), f.name())) {
        fields.add(f);
      }
    }
    return fields.isEmpty() ? null : new StructType(fields);
  }

  /** The rows {@code add}'s deletion vector deletes (none without one). */
  public DeletedRows deletedRows(AddFile add) {
    if (add.deletionVectorJson() == null) {
      return DeletedRows.empty();
    }
    return DeletionVectors.load(log.store(), log.tablePath(), tableRoot, add.path(),
        DeletionVectorDescriptor.parse(add.deletionVectorJson(), add.path()));
  }

  /** The object key of the DV file of a deletion vector (JSON as in the log); empty for none or an inline one. */
  public java.util.Optional<String> deletionVectorKey(String deletionVectorJson, String dataPath) {
    if (deletionVectorJson == null) {
      return java.util.Optional.empty();
    }
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.parse(deletionVectorJson, dataPath);
    return dv.inline() ? java.util.Optional.empty()
        : java.util.Optional.of(DeletionVectors.fileKey(log.store(), log.tablePath(), dv));
  }

  private static StructType dataSchema(SnapshotState state, StructType readSchema) {
    List<String> partitionColumns = state.metadata().partitionColumns();
    List<StructField> dataFields = new ArrayList<>();
    for (StructField f : readSchema.fields()) {
      if (!containsIgnoreCase(partitionColumns, f.name())) {
        dataFields.add(f);
      }
    }
    return new StructType(dataFields);
  }

  private static java.util.function.Function<Row, Row> withPartitionValues(AddFile add, StructType readSchema,
      StructType dataSchema) {
    int n = readSchema.size();
    Object[] partitionValues = new Object[n];
    int[] dataIndex = new int[n];
    for (int i = 0; i < n; i++) {
      StructField f = readSchema.field(i);
      dataIndex[i] = dataSchema.indexOf(f.name());
      if (dataIndex[i] < 0) {
        partitionValues[i] = PartitionValues.decode(partitionValue(add, f.name()), f.type());
      }
    }
    return r -> {
      Object[] out = new Object[n];
      for (int i = 0; i < n; i++) {
        out[i] = dataIndex[i] >= 0 ? r.get(dataIndex[i]) : partitionValues[i];
      }
      return Row.of(out);
    };
  }

  private CloseableIterator<Row> openDataFile(SnapshotState state, AddFile add, StructType dataSchema,
      boolean skipDeleted) {
    String key = keyOf(add.path());
    CloseableIterator<Row> rows = open(state, add, () -> ParquetDataReader.read(log.store(), key, add.size(), dataSchema));
    if (add.deletionVectorJson() == null || !skipDeleted) {
      return rows;
    }
    return DeletionVectors.skipDeleted(rows, deletedRows(add));
  }

  /** Opens a data file, its failures as the table's errors (a missing file, a damaged one). */
  private <T> T open(SnapshotState state, AddFile add, java.util.function.Supplier<T> reader) {
    try {
      return reader.get();
    } catch (ObjectNotFoundException e) {
      throw TableErrors.missingDataFile(log.store().uriOf(log.tablePath()), add.path(), state.version(), e);
    } catch (SluiceTableException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new InvalidTableException("Data file " + add.path() + " of " + log.store().uriOf(log.tablePath())
          + " cannot be read as Parquet (" + e.getMessage() + "). The file is damaged or not what the log says;"
          + " restore it, or remove it from the table with a DELETE of its rows.", e);
    }
  }

  private static String partitionValue(AddFile add, String column) {
    if (add.partitionValues().containsKey(column)) {
      return add.partitionValues().get(column);
    }
    for (var e : add.partitionValues().entrySet()) {
      if (e.getKey().equalsIgnoreCase(column)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static boolean containsIgnoreCase(List<String> names, String name) {
    for (String n : names) {
      if (n.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }
}
