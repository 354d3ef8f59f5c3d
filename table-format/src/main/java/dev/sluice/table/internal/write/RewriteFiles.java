package dev.sluice.table.internal.write;

import dev.sluice.table.data.Row;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * The new files of a copy-on-write operation (DELETE, MERGE): rewritten and inserted rows, plus the
 * change data feed files when the table has the feed on (opened at the first change, so a writer that
 * records none leaves no empty change file). Either {@link #finish} hands every file to the transaction,
 * {@link #close} returns them, or {@link #abort} deletes them. Not thread-safe: one per thread.
 */
public final class RewriteFiles {
  private final TableContext context;
  private final StructType schema;
  private final List<String> partitionColumns;
  private final WriteOptions options;
  private final boolean changeFeed;
  private final TableWriter data;
  private ChangeDataWriter changes;
  /** A writer of inserts only ({@link #inserting}): its change files copy its data files. */
  private final boolean insertsOnly;
  /** The change files of an inserting writer, written at close. */
  private final List<NewFile> copies = new java.util.ArrayList<>();

  /** The files one writer wrote. */
  public record Written(List<NewFile> data, List<NewFile> changes) {}

  public RewriteFiles(TableContext context, StructType schema, List<String> partitionColumns, WriteOptions options,
      boolean changeFeed) {
    this(context, schema, partitionColumns, options, changeFeed, false);
  }

  /**
   * A writer that only inserts ({@link #insert}): it writes its change files at {@link #close}, from its data files
   * (their column chunks copied), instead of encoding every row a second time.
   */
  public static RewriteFiles inserting(TableContext context, StructType schema, List<String> partitionColumns,
      WriteOptions options, boolean changeFeed) {
    return new RewriteFiles(context, schema, partitionColumns, options, changeFeed, true);
  }

  private RewriteFiles(TableContext context, StructType schema, List<String> partitionColumns, WriteOptions options,
      boolean changeFeed, boolean insertsOnly) {
    this.insertsOnly = insertsOnly;
    this.context = context;
    this.schema = schema;
    this.partitionColumns = partitionColumns;
    this.options = options;
    this.changeFeed = changeFeed;
    String table = context.log().tablePath();
    this.data = new TableWriter(context.log().store(), table, "", schema, partitionColumns, options, context.clock());
  }

  public void write(Row row) {
    requireMixed();
    data.write(row);
  }

  /** Writes an inserted row and records it for the feed (on a writer of {@link #inserting}, at close). */
  public void insert(Row row) {
    data.write(row);
    if (!insertsOnly) {
      change(row, ChangeDataWriter.INSERT);
    }
  }

  private void requireMixed() {
    if (insertsOnly) {
      throw new IllegalStateException("A writer of inserts only takes insert(row)");
    }
  }

  /** Records a change for the feed; nothing when the feed is off. */
  public void change(Row row, String changeType) {
    requireMixed();
    if (!changeFeed) {
      return;
    }
    if (changes == null) {
      changes = new ChangeDataWriter(context.log().store(), context.log().tablePath(), schema, partitionColumns, options,
          context.clock());
    }
    changes.write(row, changeType);
  }

  /** Closes all files and returns them. */
  public Written close() {
    List<NewFile> added = data.finish();
    if (changeFeed && insertsOnly) {
      for (NewFile f : added) {
        copies.add(data.insertChangeFile(f));
      }
      return new Written(added, List.copyOf(copies));
    }
    return new Written(added, changes == null ? List.of() : changes.finishFiles());
  }

  /** Closes all files and adds them ({@code add} and {@code cdc}) to the transaction; returns the data files. */
  public List<NewFile> finish(OptimisticTransaction txn) {
    Written written = close();
    addTo(txn, written);
    return written.data();
  }

  /** Adds written files to the transaction: {@code add} for data files, {@code cdc} for change files. */
  public static void addTo(OptimisticTransaction txn, Written written) {
    for (NewFile f : written.data()) {
      txn.add(f.add(), f.key());
    }
    for (NewFile f : written.changes()) {
      txn.addCdc(new AddCdcFile(f.add().path(), f.add().partitionValues(), f.add().size(), null), f.key());
    }
  }

  public void abort() {
    data.abort();
    if (!copies.isEmpty()) {
      context.log().store().deleteAll(copies.stream().map(NewFile::key).toList());
      copies.clear();
    }
    if (changes != null) {
      changes.abort();
    }
  }
}
