package dev.sluice.table;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.expressions.BoundPredicate;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.types.StructType;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Replaces the whole table, or the partitions matching a predicate on partition columns
 * ({@code replaceWhere}), with new rows in one atomic commit.
 */
public final class Overwrite extends WriteOperation<Overwrite> {
  private StructType schema;
  private List<Row> rows = List.of();
  private Predicate where;
  private boolean mergeSchema;

  Overwrite(TableContext context) {
    super(context, 3);
  }

  public Overwrite schema(StructType value) {
    this.schema = value;
    return this;
  }

  /** The new rows (kept in memory so that a conflict can re-run the overwrite on a fresh snapshot). */
  public Overwrite rows(List<Row> values) {
    this.rows = List.copyOf(values);
    return this;
  }

  /**
   * Replace only the partitions matching {@code predicate}, which may reference partition columns
   * only; every new row must match it.
   */
  public Overwrite where(Predicate predicate) {
    this.where = predicate;
    return this;
  }

  public Overwrite mergeSchema(boolean value) {
    this.mergeSchema = value;
    return this;
  }

  /**
   * @throws InvalidOperationException when the predicate references data columns or a new row doesn't match it
   */
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
    List<AddFile> replaced;
    BoundPredicate rowCheck = null;
    if (where == null) {
      txn.readWholeTable();
      replaced = List.copyOf(snapshot.activeFiles().values());
    } else {
      Set<String> lower = new HashSet<>();
      partitionColumns.forEach(c -> lower.add(c.toLowerCase(java.util.Locale.ROOT)));
      for (String c : where.referencedColumns()) {
        if (!lower.contains(c.toLowerCase(java.util.Locale.ROOT))) {
          throw new InvalidOperationException("Overwrite where '" + where + "' references '" + c + "', which is not a"
              + " partition column of " + context.log().tablePath() + " (partition columns: " + partitionColumns
              + "). Use a delete followed by an append to replace rows by data columns.");
        }
      }
      replaced = context.prune(snapshot, where);
      txn.readPredicate(where, add -> context.mightMatch(snapshot, add, where));
      rowCheck = where.bind(schema == null ? snapshot.schema() : schema);
    }
    long now = context.clock().millis();
    for (AddFile f : replaced) {
      txn.readFile(f);
      txn.remove(f.toRemove(now, true));
    }
    Iterator<Row> input = rowCheck == null ? rows.iterator() : checked(rows.iterator(), rowCheck);
    DataWrite.Result written = DataWrite.write(context, txn, snapshot, schema, input, mergeSchema, options);
    Map<String, String> metrics = withExtra(OptimisticTransaction.metrics(
        "numFiles", written.files().size(), "numOutputRows", written.rows(), "numOutputBytes", written.bytes(),
        "numRemovedFiles", replaced.size()));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("mode", "Overwrite");
    params.put("partitionBy", Json.stringList(partitionColumns));
    if (where != null) {
      params.put("predicate", Json.stringList(List.of(where.toString())));
    }
    long version = txn.commit(operationName == null ? "WRITE" : operationName, params, metrics);
    return new CommitResult(version, false, metrics);
  }

  private Iterator<Row> checked(Iterator<Row> in, BoundPredicate check) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return in.hasNext();
      }

      @Override
      public Row next() {
        if (!in.hasNext()) {
          throw new NoSuchElementException();
        }
        Row r = in.next();
        if (!check.test(r)) {
          throw new InvalidOperationException("Row " + r + " does not match the overwrite condition '" + where
              + "'; an overwrite with a condition may only write rows of the partitions it replaces.");
        }
        return r;
      }
    };
  }
}
