package dev.sluice.table.internal.write;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * The new files of a copy-on-write operation (DELETE, MERGE): rewritten and inserted rows, plus the
 * change data feed files when the table has the feed on. Either {@link #finish} hands every file to
 * the transaction, or {@link #abort} deletes them.
 */
public final class RewriteFiles {
  private final TableWriter data;
  private final ChangeDataWriter changes;

  public RewriteFiles(TableContext context, StructType schema, List<String> partitionColumns, WriteOptions options,
      boolean changeFeed) {
    String table = context.log().tablePath();
    this.data = new TableWriter(context.log().store(), table, "", schema, partitionColumns, options, context.clock());
    this.changes = changeFeed
        ? new ChangeDataWriter(context.log().store(), table, schema, partitionColumns, options, context.clock())
        : null;
  }

  public void write(Row row) {
    data.write(row);
  }

  /** Records a change for the feed; nothing when the feed is off. */
  public void change(Row row, String changeType) {
    if (changes != null) {
      changes.write(row, changeType);
    }
  }

  /** Closes all files and adds them ({@code add} and {@code cdc}) to the transaction; returns the data files. */
  public List<NewFile> finish(OptimisticTransaction txn) {
    List<NewFile> added = data.finish();
    for (NewFile f : added) {
      txn.add(f.add(), f.key());
    }
    if (changes != null) {
      changes.finish(txn);
    }
    return added;
  }

  public void abort() {
    data.abort();
    if (changes != null) {
      changes.abort();
    }
  }
}
