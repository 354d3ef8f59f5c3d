package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.ConcurrentModificationException;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.maintenance.CompactionPlan;
import dev.sluice.table.internal.maintenance.RowOrdering;
import dev.sluice.table.internal.maintenance.SpillingSort;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.internal.write.NewFile;
import dev.sluice.table.internal.write.TableWriter;
import dev.sluice.table.internal.write.WriteOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Compacts small data files into files of the target size (Delta's {@code OPTIMIZE}), optionally writing the rows
 * in Z-order ({@link #zOrderBy}) or clustered ({@link #clusterBy}) so that file statistics skip more files.
 *
 * <p>A table with {@code sluice.clusteringColumns} (see {@link CreateTable#clusterBy}) is clustered by them when no
 * order is named, as OPTIMIZE on a Delta table with liquid clustering is. Clustering rewrites the new files together
 * with the clustered files whose key ranges they overlap, so the files keep disjoint key ranges over many
 * increments; it sorts with bounded memory, spilling sorted runs to local disk. A Z-order over several columns
 * ranks rows among all of a partition's, in memory.
 *
 * <p>The commit has {@code dataChange=false} on every action: the rows stay the same, so streams reading the table
 * and the change data feed skip it. Only files below the target size are rewritten (Z-order and clustering: only
 * files not yet in that order), so running it again finds nothing to do. A concurrent append never conflicts with
 * it; a concurrent DELETE, MERGE or OPTIMIZE that removes a file it rewrote does, as in Delta.
 */
public final class Optimize {
  /** The operation name in {@code commitInfo}. */
  public static final String OPERATION = "OPTIMIZE";

  private final TableContext context;
  private Predicate where = Predicate.alwaysTrue();
  private RowOrdering.Mode orderMode;
  private List<String> orderColumns = List.of();
  private OptionalLong targetFileSize = OptionalLong.empty();
  private Set<Map<String, String>> onlyPartitions;
  private boolean auto;
  private int retries;
  private int sortBufferRows = SpillingSort.DEFAULT_BUFFER_ROWS;
  // Of the last attempt; for tests.
  private int spilledRuns;

  Optimize(TableContext context) {
    this.context = context;
  }

  /** Only the partitions matching {@code predicate}, which may reference partition columns only (default: all). */
  public Optimize where(Predicate predicate) {
    this.where = predicate;
    return this;
  }

  /** Writes the rewritten rows along a Z-order curve over {@code columns} (data columns, not partition columns). */
  public Optimize zOrderBy(String... columns) {
    return order(RowOrdering.Mode.ZORDER, columns);
  }

  /** Writes the rewritten rows sorted by {@code columns}, the first one major. */
  public Optimize clusterBy(String... columns) {
    return order(RowOrdering.Mode.CLUSTER, columns);
  }

  private Optimize order(RowOrdering.Mode mode, String... columns) {
    if (orderMode != null && orderMode != mode) {
      throw new IllegalArgumentException("Choose either Z-order or clustering for one OPTIMIZE, not both");
    }
    if (columns.length == 0) {
      throw new IllegalArgumentException("Name at least one column to " + (mode == RowOrdering.Mode.ZORDER
          ? "Z-order" : "cluster") + " by");
    }
    this.orderMode = mode;
    this.orderColumns = List.copyOf(Arrays.asList(columns));
    return this;
  }

  /**
   * Files below this size are compacted, into files of about this size (default: the table property
   * {@code delta.targetFileSize}, else 128 MiB).
   */
  public Optimize targetFileSize(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("The target file size must be positive, got " + bytes);
    }
    this.targetFileSize = OptionalLong.of(bytes);
    return this;
  }

  /** How often to plan again from a fresh snapshot after a conflicting concurrent commit (default 0: fail). */
  public Optimize retries(int count) {
    this.retries = count;
    return this;
  }

  /** How many rows a clustering sort holds in the heap before it spills a sorted run to disk (tests lower it). */
  Optimize sortBufferRows(int rows) {
    this.sortBufferRows = rows;
    return this;
  }

  /** The sorted runs the last clustering spilled to disk. */
  int spilledRuns() {
    return spilledRuns;
  }

  /** Auto-compaction: only these partitions, recorded as {@code auto=true}. */
  Optimize auto(Set<Map<String, String>> partitions) {
    this.onlyPartitions = partitions;
    this.auto = true;
    return this;
  }

  /**
   * Plans and, unless nothing needs compacting, commits the rewrite.
   *
   * @throws dev.sluice.table.exceptions.TableNotFoundException when there is no table at the path
   * @throws InvalidOperationException when the predicate reads data columns or an order column is not usable
   * @throws ConcurrentModificationException when a concurrent commit removed a file this one rewrites (more than
   *     {@code retries} times)
   */
  public Result execute() {
    return ConflictRetries.run(retries, this::attempt);
  }

  private Result attempt() {
    spilledRuns = 0;
    SnapshotState snapshot = context.latestState();
    List<String> partitionColumns = snapshot.metadata().partitionColumns();
    if (!where.referencesOnly(partitionColumns)) {
      throw new InvalidOperationException("OPTIMIZE " + context.log().tablePath() + " WHERE " + where
          + " reads the data columns " + where.columnsOutside(partitionColumns) + "; OPTIMIZE rewrites whole files,"
          + " so its condition may only use the partition columns " + partitionColumns + ".");
    }
    where.bind(snapshot.schema());
    Optional<RowOrdering> ordering = ordering(snapshot, partitionColumns);
    WriteOptions options = WriteOptions.DEFAULT.forTable(snapshot.metadata().configuration());
    if (targetFileSize.isPresent()) {
      options = options.withTargetFileSize(targetFileSize.getAsLong());
    }
    List<AddFile> candidates = context.prune(snapshot, where).stream()
        .filter(f -> onlyPartitions == null || onlyPartitions.contains(f.partitionValues())).toList();
    CompactionPlan plan = CompactionPlan.of(candidates, options.targetFileSizeBytes(), ordering, snapshot.schema());
    if (plan.isEmpty()) {
      return new Result(snapshot.version(), OptionalLong.empty(), 0, 0, 0, 0, 0);
    }
    OptimisticTransaction txn = context.newTransaction(snapshot);
    // Compaction changes no rows: a concurrent append can't hold rows it should have read.
    txn.readPredicate(where, add -> false);
    List<NewFile> added = rewrite(snapshot, plan, ordering, options, txn);
    long removedBytes = plan.groups().stream().mapToLong(CompactionPlan.Group::bytes).sum();
    long addedBytes = added.stream().mapToLong(f -> f.add().size()).sum();
    Map<String, String> metrics = OptimisticTransaction.metrics("numRemovedFiles", plan.numFiles(),
        "numAddedFiles", added.size(), "numRemovedBytes", removedBytes, "numAddedBytes", addedBytes,
        "numPartitionsOptimized", plan.numPartitions());
    long version = txn.commit(OPERATION, parameters(ordering), metrics);
    return new Result(snapshot.version(), OptionalLong.of(version), plan.numFiles(), added.size(), removedBytes,
        addedBytes, plan.numPartitions());
  }

  /** The ordering asked for; else, unless auto-compacting, the table's clustering columns (as liquid clustering). */
  private Optional<RowOrdering> ordering(SnapshotState snapshot, List<String> partitionColumns) {
    if (orderMode != null) {
      return Optional.of(RowOrdering.of(orderMode, orderColumns, snapshot.schema(), partitionColumns));
    }
    List<String> clustering = RowOrdering.clusteringColumns(snapshot.metadata().configuration());
    return auto || clustering.isEmpty() ? Optional.empty()
        : Optional.of(RowOrdering.of(RowOrdering.Mode.CLUSTER, clustering, snapshot.schema(), partitionColumns));
  }

  private List<NewFile> rewrite(SnapshotState snapshot, CompactionPlan plan, Optional<RowOrdering> ordering,
      WriteOptions options, OptimisticTransaction txn) {
    TableWriter writer = new TableWriter(context.log().store(), context.log().tablePath(), "", snapshot.schema(),
        snapshot.metadata().partitionColumns(), options, context.clock());
    List<NewFile> written;
    try {
      long now = context.clock().millis();
      for (CompactionPlan.Group group : plan.groups()) {
        if (ordering.isPresent() && ordering.get().comparesRows()) {
          sortGroup(snapshot, group, ordering.get(), writer, txn, now);
          continue;
        }
        List<Row> buffered = new ArrayList<>();
        for (AddFile file : group.files()) {
          txn.readFile(file);
          txn.remove(file.toRemove(now, false /* dataChange */));
          try (CloseableIterator<Row> rows = context.readRows(snapshot, file, snapshot.schema())) {
            if (ordering.isPresent()) {
              rows.forEachRemaining(buffered::add);
            } else {
              rows.forEachRemaining(writer::write);
            }
          }
        }
        // A multi-column Z-order ranks each row among all of the group's, so it needs them in memory together;
        // bin-packing streams them. A group's files are its own.
        ordering.ifPresent(o -> {
          o.sort(buffered).forEach(writer::write);
          writer.roll();
        });
      }
      written = writer.finish();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
    List<NewFile> out = new ArrayList<>();
    for (NewFile f : written) {
      AddFile plain = f.add();
      String tag = ordering.map(RowOrdering::tag).orElse(CompactionPlan.BIN_PACKED);
      AddFile add = new AddFile(plain.path(), plain.partitionValues(), plain.size(), plain.modificationTime(),
          false /* dataChange */, plain.stats(), Map.of(CompactionPlan.ORDER_TAG, tag), null);
      txn.add(add, f.key());
      out.add(new NewFile(add, f.key(), f.numRecords()));
    }
    return out;
  }

  /**
   * Writes a group's rows sorted, holding at most {@link #sortBufferRows} of them in the heap (the rest spill to
   * sorted runs on local disk), into files of its own: the groups of a clustering hold disjoint key ranges.
   */
  private void sortGroup(SnapshotState snapshot, CompactionPlan.Group group, RowOrdering ordering, TableWriter writer,
      OptimisticTransaction txn, long now) {
    try (SpillingSort sort = new SpillingSort(snapshot.schema(), ordering.comparator(), sortBufferRows)) {
      for (AddFile file : group.files()) {
        txn.readFile(file);
        txn.remove(file.toRemove(now, false /* dataChange */));
        try (CloseableIterator<Row> rows = context.readRows(snapshot, file, snapshot.schema())) {
          rows.forEachRemaining(sort::add);
        }
      }
      spilledRuns += sort.spilledRuns();
      try (CloseableIterator<Row> sorted = sort.sorted()) {
        sorted.forEachRemaining(writer::write);
      }
    }
    writer.roll();
  }

  private Map<String, String> parameters(Optional<RowOrdering> ordering) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("predicate", Json.stringList(where.equals(Predicate.alwaysTrue()) ? List.of() : List.of(where.toString())));
    params.put("zOrderBy", Json.stringList(ordering.filter(o -> o.mode() == RowOrdering.Mode.ZORDER)
        .map(RowOrdering::columns).orElse(List.of())));
    ordering.filter(o -> o.mode() == RowOrdering.Mode.CLUSTER)
        .ifPresent(o -> params.put("clusterBy", Json.stringList(o.columns())));
    params.put("auto", Boolean.toString(auto));
    return params;
  }

  /**
   * What an OPTIMIZE did.
   *
   * @param readVersion the version whose files were planned
   * @param committedVersion the OPTIMIZE commit; empty when nothing needed compacting
   * @param filesRemoved the small (or not yet ordered) files rewritten
   * @param filesAdded the files written in their place
   * @param bytesRemoved the size of the rewritten files
   * @param bytesAdded the size of the new files
   * @param partitionsOptimized how many partitions had files rewritten
   */
  public record Result(long readVersion, OptionalLong committedVersion, long filesRemoved, long filesAdded,
      long bytesRemoved, long bytesAdded, long partitionsOptimized) {
    /** True when the table needed no compaction. */
    public boolean noop() {
      return committedVersion.isEmpty();
    }
  }
}
