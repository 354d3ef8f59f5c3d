package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.IndexedRow;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.internal.dv.DeletedRows;
import dev.sluice.table.internal.write.ChangeDataWriter;
import dev.sluice.table.internal.write.DeletionVectorUpdate;
import dev.sluice.table.internal.write.NewFile;
import dev.sluice.table.internal.write.RewriteFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * Deletes the rows matching a predicate: files that can't hold a match (by partition values and stats) are
 * untouched, files whose rows all match are removed, others are rewritten without the matching rows
 * (copy-on-write) or, on a table with {@code delta.enableDeletionVectors=true}, keep their rows and get a deletion
 * vector naming the deleted ones. With the change data feed on, deleted rows go to {@code _change_data}.
 */
public final class Delete extends WriteOperation<Delete> {
  private Predicate where = Predicate.alwaysTrue();

  Delete(TableContext context) {
    super(context, 3);
  }

  /** The rows to delete (default: all). */
  public Delete where(Predicate predicate) {
    this.where = predicate;
    return this;
  }

  /** @throws dev.sluice.table.exceptions.InvalidOperationException on an append-only table */
  public CommitResult commit() {
    return withRetries(this::attempt);
  }

  private CommitResult attempt() {
    SnapshotState snapshot = context.latestState();
    OptimisticTransaction txn = context.newTransaction(snapshot);
    if (hasTxn() && txn.setTransaction(appId, appVersion)) {
      return CommitResult.skipped(snapshot.version());
    }
    List<String> partitionColumns = snapshot.metadata().partitionColumns();
    txn.readPredicate(where, add -> context.mightMatch(snapshot, add, where));
    BoundPredicate match = where.bind(snapshot.schema());
    boolean cdf = ChangeFeed.enabled(snapshot.metadata());
    RewriteFiles rewriter = new RewriteFiles(context, snapshot.schema(), partitionColumns,
        options.forTable(snapshot.metadata().configuration()), cdf);
    long now = context.clock().millis();
    DeletionVectorUpdate dvs = DeletionVectorUpdate.enabled(txn.protocol(), txn.metadata())
        ? new DeletionVectorUpdate(context) : null;
    DeletionVectorUpdate.Counts dvCounts = null;
    long deleted = 0;
    long copied = 0;
    int removedFiles = 0;
    List<NewFile> added;
    try {
      for (AddFile file : context.prune(snapshot, where)) {
        txn.readFile(file);
        if (dvs != null) {
          long matched = markDeleted(snapshot, file, match, rewriter, dvs, context);
          deleted += matched;
          continue;
        }
        List<Row> kept = new ArrayList<>();
        long matched = 0;
        try (CloseableIterator<Row> rows = context.readRows(snapshot, file, snapshot.schema())) {
          while (rows.hasNext()) {
            Row r = rows.next();
            if (match.test(r)) {
              matched++;
              rewriter.change(r, ChangeDataWriter.DELETE);
            } else {
              kept.add(r);
            }
          }
        }
        if (matched == 0) {
          continue;
        }
        deleted += matched;
        copied += kept.size();
        removedFiles++;
        txn.remove(file.toRemove(now, true));
        kept.forEach(rewriter::write);
      }
      added = rewriter.finish(txn);
      if (dvs != null) {
        dvCounts = dvs.addTo(txn, now);
        removedFiles = dvCounts.filesRemoved();
      }
    } catch (RuntimeException e) {
      rewriter.abort();
      throw e;
    }
    // From here on the transaction owns the files: it deletes them only when the commit surely failed.
    Map<String, String> metrics = withExtra(OptimisticTransaction.metrics(
        "numRemovedFiles", removedFiles, "numAddedFiles", added.size(), "numDeletedRows", deleted,
        "numCopiedRows", copied,
        "numDeletionVectorsAdded", dvCounts == null ? 0 : dvCounts.dvsAdded(),
        "numDeletionVectorsRemoved", dvCounts == null ? 0 : dvCounts.dvsRemoved()));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("predicate", Json.stringList(List.of(where.toString())));
    long version = txn.commit(operationName == null ? "DELETE" : operationName, params, metrics);
    return new CommitResult(version, false, metrics);
  }

  /** Marks the matching rows of {@code file} in its deletion vector; returns how many there are. */
  private static long markDeleted(SnapshotState snapshot, AddFile file, BoundPredicate match, RewriteFiles changes,
      DeletionVectorUpdate dvs, TableContext context) {
    LongStream.Builder indexes = LongStream.builder();
    long matched = 0;
    long live = 0;
    try (CloseableIterator<IndexedRow> rows = context.readIndexedRows(snapshot, file, snapshot.schema())) {
      while (rows.hasNext()) {
        IndexedRow r = rows.next();
        live++;
        if (match.test(r.row())) {
          matched++;
          indexes.add(r.index());
          changes.change(r.row(), ChangeDataWriter.DELETE);
        }
      }
    }
    if (matched > 0) {
      DeletedRows old = context.deletedRows(file);
      dvs.delete(file, DeletedRows.of(indexes.build().toArray()), live + old.cardinality());
    }
    return matched;
  }
}
