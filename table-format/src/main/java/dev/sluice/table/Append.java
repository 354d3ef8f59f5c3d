package dev.sluice.table;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.types.StructType;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A blind append: new data files, nothing read, so it never conflicts with other writers' data
 * changes ({@code isBlindAppend: true}). Idempotent with {@link #txn}.
 */
public final class Append extends WriteOperation<Append> {
  private StructType schema;
  private Iterator<Row> rows = List.<Row>of().iterator();
  /** The rows when handed over as a list: a large one is written as several files in parallel. */
  private List<Row> rowList;
  private boolean mergeSchema;
  private Boolean autoCompact;

  Append(TableContext context) {
    super(context, 3);
  }

  /** The schema of the rows (default: the table's). Columns are matched to the table's by name. */
  public Append schema(StructType value) {
    this.schema = value;
    return this;
  }

  /** The rows to append; a large {@link java.util.RandomAccess} list is written as several files at once. */
  public Append rows(Iterable<Row> values) {
    rows(values.iterator());
    if (values instanceof List<Row> list && values instanceof java.util.RandomAccess) {
      rowList = list;
    }
    return this;
  }

  /** The rows to append; read once, during {@link #commit()}. */
  public Append rows(Iterator<Row> values) {
    this.rows = values;
    this.rowList = null;
    return this;
  }

  /** Adds columns the data has and the table doesn't, as nullable columns (additive schema evolution). */
  public Append mergeSchema(boolean value) {
    this.mergeSchema = value;
    return this;
  }

  /**
   * After the commit, compact the partitions written to that hold 50 or more files below the target size, in an
   * {@code OPTIMIZE} commit of their own (default: the table property {@code delta.autoOptimize.autoCompact}).
   */
  public Append autoCompact(boolean value) {
    this.autoCompact = value;
    return this;
  }

  /**
   * Writes the files and commits them.
   *
   * @throws dev.sluice.table.exceptions.SchemaMismatchException when the rows don't fit the table
   * @throws dev.sluice.table.exceptions.TableNotFoundException when the table doesn't exist
   */
  public CommitResult commit() {
    // Rows are consumed by the first attempt, so an append is never re-run: its commit loop already
    // moves past concurrent blind appends; only a metadata or protocol change can fail it.
    SnapshotState snapshot = context.latestState();
    OptimisticTransaction txn = context.newTransaction(snapshot);
    if (hasTxn() && txn.setTransaction(appId, appVersion)) {
      return CommitResult.skipped(snapshot.version());
    }
    DataWrite.Result written = rowList != null
        ? DataWrite.write(context, txn, snapshot, schema, rowList, mergeSchema, options)
        : DataWrite.write(context, txn, snapshot, schema, rows, mergeSchema, options);
    Map<String, String> metrics = withExtra(OptimisticTransaction.metrics(
        "numFiles", written.files().size(), "numOutputRows", written.rows(), "numOutputBytes", written.bytes()));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("mode", "Append");
    params.put("partitionBy", Json.stringList(snapshot.metadata().partitionColumns()));
    long version = txn.commit(operationName == null ? "WRITE" : operationName, params, metrics);
    if (autoCompact != null ? autoCompact : AutoCompaction.enabledFor(snapshot.metadata().configuration())) {
      AutoCompaction.afterWrite(context, written.files(), options);
    }
    return new CommitResult(version, false, metrics);
  }
}
