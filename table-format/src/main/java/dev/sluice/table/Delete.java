package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.internal.write.ChangeDataWriter;
import dev.sluice.table.internal.write.NewFile;
import dev.sluice.table.internal.write.RewriteFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deletes the rows matching a predicate, copy-on-write: files that can't hold a match (by partition
 * values and stats) are untouched, files whose rows all match are removed, others are rewritten
 * without the matching rows. With the change data feed on, deleted rows go to {@code _change_data}.
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
    long deleted = 0;
    long copied = 0;
    int removedFiles = 0;
    List<NewFile> added;
    try {
      for (AddFile file : context.prune(snapshot, where)) {
        txn.readFile(file);
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
    } catch (RuntimeException e) {
      rewriter.abort();
      throw e;
    }
    // From here on the transaction owns the files: it deletes them only when the commit surely failed.
    Map<String, String> metrics = withExtra(OptimisticTransaction.metrics(
        "numRemovedFiles", removedFiles, "numAddedFiles", added.size(), "numDeletedRows", deleted,
        "numCopiedRows", copied));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("predicate", Json.stringList(List.of(where.toString())));
    long version = txn.commit(operationName == null ? "DELETE" : operationName, params, metrics);
    return new CommitResult(version, false, metrics);
  }
}
