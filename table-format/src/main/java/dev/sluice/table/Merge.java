package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.IndexedRow;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.maintenance.RowOrdering;
import dev.sluice.table.internal.merge.MergeKey;
import dev.sluice.table.internal.merge.Parallel;
import dev.sluice.table.internal.merge.SourceIndex;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.internal.dv.DeletedRows;
import dev.sluice.table.internal.write.ChangeDataWriter;
import dev.sluice.table.internal.write.DeletionVectorUpdate;
import dev.sluice.table.internal.write.SchemaEnforcer;
import dev.sluice.table.internal.write.RewriteFiles;
import dev.sluice.table.internal.write.WriteOptions;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;

/**
 * MERGE of source rows into the table by key, copy-on-write, or with deletion vectors on a table with
 * {@code delta.enableDeletionVectors=true} (matched rows are marked deleted in their files' DVs and updated rows
 * written to new files, see {@link DeletionVectorUpdate}). Matched target rows are updated
 * (all source columns over the target's) or deleted by the first matched clause whose condition
 * holds; unmatched source rows are inserted. Only files that may hold a source key (by partition
 * values and min/max stats) are read, and only files with a changed row are rewritten. With the
 * change data feed on, pre/post images, deletes and inserts go to {@code _change_data}.
 *
 * <p>Written rows keep the key ranges of the files narrow, so that a later MERGE's pruning by min/max isolates the
 * few files an increment touches: a rewritten file keeps its rows' order, the updated rows of DV-marked files and
 * the inserted source rows are written sorted by the merge keys, and all roll into new files at the target file
 * size ({@code delta.targetFileSize}, default 128 MiB). Rows of {@link #insertAbsent} keep their arrival order (they
 * are streamed, never held). {@link Optimize#clusterBy} brings the files back to disjoint key ranges over time.
 *
 * <p>The source is held in memory (a micro-batch), so a conflict can re-run the MERGE on a fresh snapshot.
 */
public final class Merge extends WriteOperation<Merge> {
  /** Inserts of at least this many rows are written in shares on several threads (each share its own files). */
  private static final int PARALLEL_INSERT_ROWS = 50_000;

  private StructType sourceSchema;
  private Iterable<Row> sourceRows = List.of();
  private long absentVersion = -1;
  private List<? extends Iterable<Row>> absentShares = List.of();
  private List<String> keys = List.of();
  private final List<Clause> matched = new ArrayList<>();
  private boolean insertNotMatched;
  private MergeCondition insertCondition = MergeCondition.always();
  private String latestBy;
  private Predicate targetFilter;
  private boolean mergeSchema;
  private long locatedVersion = -1;
  private Map<String, java.util.BitSet> locatedRows;
  private final List<String> clauseText = new ArrayList<>();

  Merge(TableContext context) {
    super(context, 3);
  }

  /** The source rows and their schema; columns are matched to the table's by name. */
  public Merge source(StructType schema, List<Row> rows) {
    this.sourceSchema = schema;
    this.sourceRows = List.copyOf(rows);
    return this;
  }

  /**
   * The source rows as a re-iterable stream, not copied: read once per attempt (e.g. a micro-batch spilled to
   * disk). Only the rows of keys that may match are kept in memory (the key index).
   */
  public Merge source(StructType schema, Iterable<Row> rows) {
    this.sourceSchema = schema;
    this.sourceRows = rows;
    return this;
  }

  /**
   * More source rows, which the caller found to match no target row in the table's version {@code readVersion}
   * (by a keyed read of that snapshot): they are inserted as {@code whenNotMatchedInsert} would, without being
   * indexed or matched, so that a large batch of new keys needs no key index in memory. Each share is written
   * by a thread of its own, streaming (shares are iterated once per attempt). Their keys must not repeat nor
   * occur in {@link #source}. When the table is past {@code readVersion} at the commit attempt, the MERGE
   * fails with {@link dev.sluice.table.exceptions.ConcurrentAppendException}: the caller's finding may be stale.
   */
  public Merge insertAbsent(long readVersion, List<? extends Iterable<Row>> shares) {
    this.absentVersion = readVersion;
    this.absentShares = List.copyOf(shares);
    return this;
  }

  /**
   * Where the caller found the target rows of the source's keys in the table's version {@code readVersion} (from a
   * {@link Scan#locatedRows} of that snapshot, filtered by the source keys, which reads the files pruning by those
   * keys leaves): per data file (its log path), the row indexes; a file not named holds none of them. An attempt on
   * that version reads the rows at these indexes instead of reading every candidate's key columns first (with
   * deletion vectors on); an attempt on a later version (after a conflict) ignores them. Indexes of rows whose key
   * is not in the source are allowed (they match nothing).
   */
  public Merge targetRowsAt(long readVersion, Map<String, java.util.BitSet> rowsByFile) {
    this.locatedVersion = readVersion;
    this.locatedRows = Map.copyOf(rowsByFile);
    return this;
  }

  /** The key columns: a target row matches a source row when all keys are equal (and not null). */
  public Merge on(String... keyColumns) {
    this.keys = List.of(keyColumns);
    return this;
  }

  /** When matched, replace the target row's columns with the source's. */
  public Merge whenMatchedUpdate() {
    return whenMatchedUpdate(MergeCondition.always(), "true");
  }

  /** When matched and {@code condition} holds, update; {@code description} is recorded in commitInfo. */
  public Merge whenMatchedUpdate(MergeCondition condition, String description) {
    matched.add(new Clause(false, condition));
    clauseText.add("update when " + description);
    return this;
  }

  /** When matched, delete the target row. */
  public Merge whenMatchedDelete() {
    return whenMatchedDelete(MergeCondition.always(), "true");
  }

  public Merge whenMatchedDelete(MergeCondition condition, String description) {
    matched.add(new Clause(true, condition));
    clauseText.add("delete when " + description);
    return this;
  }

  /** When a source row matches no target row, insert it. */
  public Merge whenNotMatchedInsert() {
    this.insertNotMatched = true;
    return this;
  }

  /** Insert unmatched source rows for which {@code condition} holds (its target side is null). */
  public Merge whenNotMatchedInsert(MergeCondition condition) {
    this.insertNotMatched = true;
    this.insertCondition = condition;
    return this;
  }

  /**
   * Several source rows per key are allowed: the one with the greatest {@code column} value wins
   * (nulls lose). Without it they are a {@link dev.sluice.table.exceptions.DuplicateMergeKeyException}.
   */
  public Merge latestBy(String column) {
    this.latestBy = column;
    return this;
  }

  /** Restricts the target rows considered (e.g. to the partitions a batch touches), narrowing conflicts. */
  public Merge targetFilter(Predicate predicate) {
    this.targetFilter = predicate;
    return this;
  }

  /** Adds source columns the table lacks as nullable columns. */
  public Merge mergeSchema(boolean value) {
    this.mergeSchema = value;
    return this;
  }

  /**
   * @throws dev.sluice.table.exceptions.DuplicateMergeKeyException when a key repeats in the source without latestBy
   * @throws dev.sluice.table.exceptions.ConcurrentModificationException when conflicts persist after the retries
   */
  public CommitResult commit() {
    if (sourceSchema == null || keys.isEmpty()) {
      throw new IllegalStateException("A MERGE needs source(schema, rows) and on(keys...)");
    }
    return withRetries(this::attempt);
  }

  private CommitResult attempt() {
    SnapshotState snapshot = context.latestState();
    OptimisticTransaction txn = context.newTransaction(snapshot);
    if (hasTxn() && txn.setTransaction(appId, appVersion)) {
      return CommitResult.skipped(snapshot.version());
    }
    String table = context.log().tablePath();
    if (!absentShares.isEmpty() && snapshot.version() != absentVersion) {
      throw new dev.sluice.table.exceptions.ConcurrentAppendException("MERGE into " + table + ": the table is at"
          + " version " + snapshot.version() + ", but its caller found the rows to insert absent at version "
          + absentVersion + "; another writer changed the table meanwhile. Re-run the write (a streaming query"
          + " re-runs its batch on restart).");
    }
    SchemaEnforcer.Plan plan = SchemaEnforcer.plan(snapshot.schema(), sourceSchema, mergeSchema, table);
    if (plan.evolved()) {
      var m = snapshot.metadata();
      txn.updateMetadata(new dev.sluice.table.internal.actions.Metadata(m.id(), m.name(), m.description(),
          m.formatProvider(), m.formatOptions(), plan.tableSchema().toJson(), m.partitionColumns(), m.configuration(),
          m.createdTime()));
    }
    StructType schema = plan.tableSchema();
    int[] targetKeys = SourceIndex.positions(schema, keys, "target table");
    SourceIndex source = new SourceIndex(sourceSchema, keys, sourceRows, latestBy);
    Predicate scope = keyPredicate(source);
    txn.readPredicate(scope, context.fileMatcher(snapshot, scope));
    TableContext.FileFilter scoped = context.fileFilter(snapshot, scope);
    boolean dvs = DeletionVectorUpdate.enabled(txn.protocol(), txn.metadata());
    Attempt run = new Attempt(snapshot, schema, targetKeys, plan, source,
        options.forTable(txn.metadata().configuration()), ChangeFeed.enabled(txn.metadata()), dvs,
        scoped.pages());
    List<AddFile> candidates = scoped.files().get();
    List<RewriteFiles.Written> written;
    try {
      written = run.execute(candidates);
    } catch (RuntimeException e) {
      run.abort();
      throw e;
    }
    long now = context.clock().millis();
    int filesAdded = 0;
    long bytesAdded = 0;
    long bytesRemoved = 0;
    for (AddFile file : candidates) {
      txn.readFile(file);
    }
    for (AddFile file : run.rewritten()) {
      txn.remove(file.toRemove(now, true));
      bytesRemoved += file.size();
    }
    DeletionVectorUpdate.Counts dvCounts = new DeletionVectorUpdate.Counts(0, 0, 0, 0, 0);
    try {
      if (!run.deletionVectors.isEmpty()) {
        dvCounts = run.deletionVectors.addTo(txn, now);
      }
    } catch (RuntimeException e) {
      run.abort();
      throw e;
    }
    for (RewriteFiles.Written w : written) {
      RewriteFiles.addTo(txn, w);
      filesAdded += w.data().size();
      bytesAdded += w.data().stream().mapToLong(f -> f.add().size()).sum();
    }
    Counts counts = run.counts;
    counts.filesRemoved += dvCounts.filesRemoved();
    bytesRemoved += dvCounts.bytesRemoved();
    Map<String, String> metrics = withExtra(OptimisticTransaction.metrics(
        "numSourceRows", source.size() + counts.absent,
        "numTargetRowsInserted", counts.inserted,
        "numTargetRowsUpdated", counts.updated,
        "numTargetRowsDeleted", counts.deleted,
        "numTargetRowsCopied", counts.copied,
        "numTargetFilesAdded", filesAdded,
        "numTargetFilesRemoved", counts.filesRemoved,
        "numTargetFilesScanned", counts.filesScanned,
        "numTargetDeletionVectorsAdded", dvCounts.dvsAdded(),
        "numTargetDeletionVectorsRemoved", dvCounts.dvsRemoved(),
        "numTargetBytesAdded", bytesAdded,
        "numTargetBytesRemoved", bytesRemoved));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("predicate", Json.stringList(List.of(mergeConditionText())));
    params.put("matchedPredicates", Json.stringList(clauseText));
    params.put("notMatchedPredicates", Json.stringList(insertNotMatched ? List.of("insert") : List.of()));
    long version = txn.commit(operationName == null ? "MERGE" : operationName, params, metrics);
    return new CommitResult(version, false, metrics);
  }

  /**
   * One attempt's work: each candidate file is read and, when one of its rows changes, rewritten, file by file on
   * {@link Parallel#THREADS} threads, with only the source's key index in memory (never the target's rows). A file
   * without a change has its speculative rewrite deleted. Then the unmatched source rows are inserted, in shares
   * written in parallel. An insert-only MERGE writes no change files: a commit without {@code cdc} actions has its
   * added files read as inserts by every change feed reader (the protocol's rule), so they would only repeat them.
   */
  private final class Attempt {
    private final SnapshotState snapshot;
    private final StructType schema;
    private final int[] targetKeys;
    private final SchemaEnforcer.Plan plan;
    private final SourceIndex source;
    private final WriteOptions writeOptions;
    private final boolean changeFeed;
    // Written by the file tasks (each key matches in at most one place); read after they are joined.
    private final boolean[] matchedKeys;
    private final boolean inTableOrder;
    private final Counts counts = new Counts();
    private final List<AddFile> rewritten = new ArrayList<>();
    private final List<RewriteFiles> writers = new ArrayList<>();
    // With deletion vectors: matched rows are marked deleted in their files, updated rows written to new files.
    private final boolean useDvs;
    final DeletionVectorUpdate deletionVectors = new DeletionVectorUpdate(context);
    private final List<AddFile> marked = new ArrayList<>();
    // A candidate file's rows in pages that may hold a source key (null: all of them).
    private final java.util.function.Function<AddFile, java.util.BitSet> pages;

    Attempt(SnapshotState snapshot, StructType schema, int[] targetKeys, SchemaEnforcer.Plan plan, SourceIndex source,
        WriteOptions writeOptions, boolean changeFeed, boolean useDvs,
        java.util.function.Function<AddFile, java.util.BitSet> pages) {
      this.useDvs = useDvs;
      this.pages = pages;
      this.snapshot = snapshot;
      this.schema = schema;
      this.targetKeys = targetKeys;
      this.plan = plan;
      this.source = source;
      this.writeOptions = writeOptions;
      this.changeFeed = changeFeed;
      this.matchedKeys = new boolean[source.keyed()];
      this.inTableOrder = isIdentity(plan.inputIndex(), sourceSchema.size());
    }

    List<RewriteFiles.Written> execute(List<AddFile> candidates) {
      List<Callable<FileResult>> tasks = new ArrayList<>();
      for (AddFile file : candidates) {
        tasks.add(() -> mergeFile(file));
      }
      List<RewriteFiles.Written> out = new ArrayList<>();
      List<FileResult> results = Parallel.run(tasks);
      for (FileResult r : results) {
        counts.add(r.counts);
        if (r.written != null) {
          rewritten.add(r.file);
          out.add(r.written);
        }
        if (r.marked != null) {
          marked.add(r.file);
          deletionVectors.delete(r.file, r.marked.deleted(), r.marked.physicalRows());
        }
      }
      if (!marked.isEmpty()) {
        out.add(writeChanged(results));
      }
      counts.filesScanned = candidates.size();
      counts.filesRemoved = rewritten.size();
      boolean changed = !rewritten.isEmpty() || !marked.isEmpty();
      if (insertNotMatched) {
        out.addAll(insertUnmatched(changeFeed && changed));
      }
      out.addAll(insertAbsent(changeFeed && changed));
      return out;
    }

    /**
     * The updated rows of the files marked with DVs, and their changes, in one writer (not a file per file). The
     * updated rows are written in key order (they are in memory already, as source rows), so that the files they
     * roll into at the target size hold narrow key ranges.
     */
    private RewriteFiles.Written writeChanged(List<FileResult> results) {
      RewriteFiles writer = newWriter(changeFeed);
      List<Row> updated = new ArrayList<>();
      for (FileResult r : results) {
        if (r.marked == null) {
          continue;
        }
        for (Changed c : r.marked.changes()) {
          if (c.type().equals(ChangeDataWriter.UPDATE_POSTIMAGE)) {
            updated.add(c.row());
          }
          writer.change(c.row(), c.type());
        }
      }
      inKeyOrder(updated, targetKeys).forEach(writer::write);
      return writer.close();
    }

    List<AddFile> rewritten() {
      return rewritten;
    }

    private RewriteFiles newWriter(boolean feed) {
      return tracked(new RewriteFiles(context, schema, snapshot.metadata().partitionColumns(), writeOptions, feed));
    }

    /** A writer of inserted rows only, whose change files copy its data files. */
    private RewriteFiles newInsertWriter(boolean feed) {
      return tracked(RewriteFiles.inserting(context, schema, snapshot.metadata().partitionColumns(), writeOptions,
          feed));
    }

    private synchronized RewriteFiles tracked(RewriteFiles w) {
      writers.add(w);
      return w;
    }

    synchronized void abort() {
      for (RewriteFiles w : writers) {
        w.abort();
      }
    }

    /**
     * Marks the rows of one candidate file that a clause changes. The key columns alone are read first (a file
     * whose key range only overlaps the source's, as most candidates of a small MERGE are, costs a read of one or
     * two columns); whole rows are read only from a file holding a source key, and only its matching rows are
     * converted (the others are skipped in the column readers).
     */
    private FileResult markFile(AddFile file) {
      java.util.OptionalLong stored = dev.sluice.table.internal.scan.StatsJson.numRecords(file.stats());
      boolean located = locatedRows != null && snapshot.version() == locatedVersion && stored.isPresent();
      KeyMatches keyed = located ? null : keyMatches(file);
      java.util.BitSet matching = located ? locatedRows.getOrDefault(file.path(), new java.util.BitSet()) : keyed.rows();
      Counts c = new Counts();
      if (matching.isEmpty()) {
        return new FileResult(file, null, c, null);
      }
      MergeRows pair = new MergeRows(schema, sourceSchema);
      LongStream.Builder deleted = LongStream.builder();
      List<Changed> changes = new ArrayList<>();
      try (CloseableIterator<IndexedRow> it = context.readIndexedRows(snapshot, file, schema, matching)) {
        while (it.hasNext()) {
          IndexedRow indexed = it.next();
          Row target = indexed.row();
          int pos = source.positionOf(MergeKey.of(target, targetKeys));
          if (pos < 0) {
            continue;   // a located row of a key the MERGE does not change
          }
          matchedKeys[pos] = true;
          Row src = source.row(pos);
          Clause clause = firstApplicable(pair.with(target, src));
          if (clause == null) {
            continue;
          }
          deleted.add(indexed.index());
          if (clause.delete) {
            c.deleted++;
            changes.add(new Changed(target, ChangeDataWriter.DELETE));
          } else {
            c.updated++;
            changes.add(new Changed(target, ChangeDataWriter.UPDATE_PREIMAGE));
            changes.add(new Changed(inTableOrder ? src : project(src, plan.inputIndex(), target),
                ChangeDataWriter.UPDATE_POSTIMAGE));
          }
        }
      }
      if (changes.isEmpty()) {
        return new FileResult(file, null, c, null);
      }
      // Stats count a file's physical rows (the protocol's rule with deletion vectors).
      long physical = located ? stored.getAsLong() : keyed.physical();
      return new FileResult(file, null, c, new Marked(DeletedRows.of(deleted.build().toArray()), physical, changes));
    }

    /**
     * The row indexes of {@code file}'s live rows holding a source key, from a read of its key columns (only of the
     * pages whose page index may hold a source key, when the file's stats count its rows), and its physical rows.
     */
    private KeyMatches keyMatches(AddFile file) {
      java.util.BitSet matching = new java.util.BitSet();
      int[] keyAt = new int[targetKeys.length];
      StructType keySchema = StructType.empty();
      for (int i = 0; i < targetKeys.length; i++) {
        keySchema = keySchema.add(schema.field(targetKeys[i]));
        keyAt[i] = i;
      }
      java.util.OptionalLong stored = dev.sluice.table.internal.scan.StatsJson.numRecords(file.stats());
      java.util.BitSet candidates = stored.isPresent() ? pages.apply(file) : null;
      long live = 0;
      try (CloseableIterator<IndexedRow> it = candidates == null ? context.readIndexedRows(snapshot, file, keySchema)
          : context.readIndexedRows(snapshot, file, keySchema, candidates)) {
        while (it.hasNext()) {
          IndexedRow indexed = it.next();
          live++;
          if (source.positionOf(MergeKey.of(indexed.row(), keyAt)) >= 0) {
            matching.set(Math.toIntExact(indexed.index()));
          }
        }
      }
      // Stats count a file's physical rows (the protocol's rule with deletion vectors).
      long physical = candidates != null ? stored.getAsLong() : live + context.deletedRows(file).cardinality();
      return new KeyMatches(matching, physical);
    }

    /** Rewrites one candidate file if any of its rows changes. */
    private FileResult mergeFile(AddFile file) {
      if (useDvs) {
        return markFile(file);
      }
      Counts c = new Counts();
      RewriteFiles writer = newWriter(changeFeed);
      MergeRows pair = new MergeRows(schema, sourceSchema);
      boolean touched = false;
      long rows = 0;
      try (CloseableIterator<Row> it = context.readRows(snapshot, file, schema)) {
        while (it.hasNext()) {
          Row target = it.next();
          rows++;
          int pos = source.positionOf(MergeKey.of(target, targetKeys));
          if (pos < 0) {
            writer.write(target);
            continue;
          }
          matchedKeys[pos] = true;
          Row src = source.row(pos);
          Clause clause = firstApplicable(pair.with(target, src));
          if (clause == null) {
            writer.write(target);
          } else if (clause.delete) {
            touched = true;
            c.deleted++;
            writer.change(target, ChangeDataWriter.DELETE);
          } else {
            touched = true;
            c.updated++;
            Row updated = inTableOrder ? src : project(src, plan.inputIndex(), target);
            writer.write(updated);
            writer.change(target, ChangeDataWriter.UPDATE_PREIMAGE);
            writer.change(updated, ChangeDataWriter.UPDATE_POSTIMAGE);
          }
        }
      }
      if (!touched) {
        writer.abort();
        return new FileResult(file, null, c, null);
      }
      c.copied = rows - c.updated - c.deleted;
      return new FileResult(file, writer.close(), c, null);
    }

    /** Writes the rows of {@link #insertAbsent}, a share per task. */
    private List<RewriteFiles.Written> insertAbsent(boolean feed) {
      List<Callable<RewriteFiles.Written>> tasks = new ArrayList<>();
      long[] rows = new long[absentShares.size()];
      for (int i = 0; i < absentShares.size(); i++) {
        Iterable<Row> share = absentShares.get(i);
        int slot = i;
        tasks.add(() -> {
          RewriteFiles writer = newInsertWriter(feed);
          for (Row r : share) {
            writer.insert(inTableOrder ? r : project(r, plan.inputIndex(), null));
            rows[slot]++;
          }
          return writer.close();
        });
      }
      List<RewriteFiles.Written> out = tasks.isEmpty() ? List.of() : Parallel.run(tasks);
      for (long n : rows) {
        counts.absent += n;
        counts.inserted += n;
      }
      return out;
    }

    /** Inserts the unmatched source rows whose condition holds, in up to {@link Parallel#THREADS} shares. */
    private List<RewriteFiles.Written> insertUnmatched(boolean feed) {
      List<Row> unmatched = new ArrayList<>();
      MergeRows pair = new MergeRows(schema, sourceSchema);
      for (Row r : source.nullKeyed()) {
        if (insertCondition.test(pair.with(null, r))) {
          unmatched.add(r);
        }
      }
      for (int i = 0; i < matchedKeys.length; i++) {
        Row r = source.row(i);
        if (!matchedKeys[i] && insertCondition.test(pair.with(null, r))) {
          unmatched.add(r);
        }
      }
      counts.inserted += unmatched.size();
      if (unmatched.isEmpty()) {
        return List.of();
      }
      // In key order, so each share (a contiguous run of keys) rolls into files with narrow, disjoint key ranges.
      unmatched = inKeyOrder(unmatched, SourceIndex.positions(sourceSchema, keys, "source"));
      int shares = unmatched.size() >= PARALLEL_INSERT_ROWS ? Parallel.THREADS : 1;
      int per = (unmatched.size() + shares - 1) / shares;
      List<Callable<RewriteFiles.Written>> tasks = new ArrayList<>();
      for (int from = 0; from < unmatched.size(); from += per) {
        List<Row> share = unmatched.subList(from, Math.min(unmatched.size(), from + per));
        tasks.add(() -> {
          RewriteFiles writer = newInsertWriter(feed);
          for (Row r : share) {
            writer.insert(inTableOrder ? r : project(r, plan.inputIndex(), null));
          }
          return writer.close();
        });
      }
      return Parallel.run(tasks);
    }
  }

  /** One candidate file's outcome: rewritten ({@code written}), marked with a DV ({@code marked}), or neither. */
  private record FileResult(AddFile file, RewriteFiles.Written written, Counts counts, Marked marked) {}

  /** The rows a MERGE deletes from a file by DV ({@code physicalRows}: the Parquet file's row count) and its changes. */
  private record Marked(DeletedRows deleted, long physicalRows, List<Changed> changes) {}

  private record Changed(Row row, String type) {}

  /** The rows of a file that hold a source key, and how many live rows it has. */
  private record KeyMatches(java.util.BitSet rows, long physical) {}

  private Clause firstApplicable(MergeRows rows) {
    for (Clause c : matched) {
      if (c.condition.test(rows)) {
        return c;
      }
    }
    return null;
  }

  /** A source row in table column order; columns the source lacks keep the target's value (null on insert). */
  private static Row project(Row src, int[] inputIndex, Row target) {
    Object[] out = new Object[inputIndex.length];
    for (int i = 0; i < out.length; i++) {
      if (inputIndex[i] >= 0) {
        out[i] = src.get(inputIndex[i]);
      } else if (target != null && i < target.size()) {
        out[i] = target.get(i);
      }
    }
    return Row.of(out);
  }

  /**
   * {@code rows} sorted by the key columns at {@code positions}; as they are if their values don't compare (e.g. a
   * source holding an Integer and a String in one key column): the order only helps later pruning, it must never
   * fail the MERGE.
   */
  private static List<Row> inKeyOrder(List<Row> rows, int[] positions) {
    List<Row> sorted = new ArrayList<>(rows);
    try {
      sorted.sort(RowOrdering.byColumns(positions));
      return sorted;
    } catch (RuntimeException incomparable) {
      return rows;
    }
  }

  /** Whether source rows already are in table column order (the usual case: no copy per row). */
  private static boolean isIdentity(int[] inputIndex, int sourceWidth) {
    if (inputIndex.length != sourceWidth) {
      return false;
    }
    for (int i = 0; i < inputIndex.length; i++) {
      if (inputIndex[i] != i) {
        return false;
      }
    }
    return true;
  }

  /**
   * The target rows a MERGE may touch: per key column, its values in the source (an IN list, which file pruning
   * checks against each file's min/max and membership hashes), within the target filter.
   */
  private Predicate keyPredicate(SourceIndex source) {
    Predicate scope = targetFilter == null ? Predicate.alwaysTrue() : targetFilter;
    if (source.keyed() == 0) {
      return Predicate.and(scope, Predicate.alwaysFalse());
    }
    for (int i = 0; i < keys.size(); i++) {
      Set<Object> values = new HashSet<>();
      boolean comparable = true;
      for (int p = 0; p < source.keyed() && comparable; p++) {
        Object v = MergeKey.part(source.key(p), i);
        comparable = v instanceof Comparable && !(v instanceof java.nio.ByteBuffer);
        values.add(v);
      }
      if (comparable) {
        scope = Predicate.and(scope, Predicate.in(keys.get(i), new ArrayList<>(values)));
      }
    }
    return scope;
  }

  private String mergeConditionText() {
    StringBuilder sb = new StringBuilder();
    for (String k : keys) {
      if (sb.length() > 0) {
        sb.append(" AND ");
      }
      sb.append("target.").append(k).append(" = source.").append(k);
    }
    return sb.toString();
  }

  private record Clause(boolean delete, MergeCondition condition) {}

  private static final class Counts {
    long inserted;
    long absent;
    long updated;
    long deleted;
    long copied;
    int filesRemoved;
    int filesScanned;

    void add(Counts c) {
      updated += c.updated;
      deleted += c.deleted;
      copied += c.copied;
    }
  }
}
