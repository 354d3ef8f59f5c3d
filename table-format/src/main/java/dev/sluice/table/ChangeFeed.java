package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.internal.IndexedRow;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.dv.DeletedRows;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.scan.RowIterators;
import dev.sluice.table.internal.write.ChangeDataWriter;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The change data feed of a version range: every inserted, deleted and updated row with
 * {@code _change_type}, {@code _commit_version} and {@code _commit_timestamp}, in version order.
 * A version with {@code cdc} actions is read from its change files only; in other versions added
 * files count as inserts and removed files as deletes (Delta's reader rule). Files with
 * {@code dataChange=false} (compaction) are not changes. A data file removed and re-added in one version with a
 * new deletion vector changed only by the rows its new DV deletes on top of the old one: those are its deletes.
 */
public final class ChangeFeed {
  public static final String COMMIT_VERSION = "_commit_version";
  public static final String COMMIT_TIMESTAMP = "_commit_timestamp";

  private final TableContext context;
  private final long start;
  private final long end;
  private final SnapshotState endState;
  /** The table columns read: all, or those {@link #select} chose. */
  private final StructType dataSchema;
  private final StructType schema;

  ChangeFeed(TableContext context, long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("A change feed needs 0 <= startVersion <= endVersion, got " + start + ".." + end);
    }
    this.context = context;
    this.start = start;
    this.end = end;
    this.endState = context.log().snapshotAt(end);
    if (!enabled(endState.metadata())) {
      throw new InvalidOperationException("The change data feed is not enabled on " + context.log().tablePath()
          + ". Create the table with enableChangeDataFeed() (delta.enableChangeDataFeed=true).");
    }
    this.dataSchema = endState.schema();
    this.schema = schemaOf(dataSchema);
  }

  private ChangeFeed(ChangeFeed feed, StructType dataSchema) {
    this.context = feed.context;
    this.start = feed.start;
    this.end = feed.end;
    this.endState = feed.endState;
    this.dataSchema = dataSchema;
    this.schema = schemaOf(dataSchema);
  }

  private static StructType schemaOf(StructType dataSchema) {
    return ChangeDataWriter.withChangeType(dataSchema)
        .add(COMMIT_VERSION, PrimitiveType.LONG)
        .add(COMMIT_TIMESTAMP, PrimitiveType.TIMESTAMP);
  }

  /**
   * The same changes with only the table columns of {@code columns} (fields of the table's schema at the end
   * version, in the table's order), then the change columns: the other columns are not decoded.
   */
  public ChangeFeed select(StructType columns) {
    return new ChangeFeed(this, columns);
  }

  /** Whether a table's properties turn the change data feed on. */
  static boolean enabled(Metadata metadata) {
    return "true".equalsIgnoreCase(metadata.configuration().get("delta.enableChangeDataFeed"));
  }

  /** The table's ({@link #select}ed) columns, then {@code _change_type}, {@code _commit_version} and the timestamp. */
  public StructType schema() {
    return schema;
  }

  /** The changed rows, version by version; the caller closes the iterator. */
  public CloseableIterator<Row> rows() {
    List<java.util.function.Supplier<CloseableIterator<Row>>> parts = new ArrayList<>();
    for (long v = start; v <= end; v++) {
      long version = v;
      List<Action> actions = context.log().readCommit(version);
      Instant ts = Instant.ofEpochMilli(context.log().commitTimestamp(version));
      boolean hasCdc = actions.stream().anyMatch(a -> a instanceof AddCdcFile);
      if (hasCdc) {
        for (Action a : actions) {
          if (a instanceof AddCdcFile cdc) {
            AddFile asAdd = new AddFile(cdc.path(), cdc.partitionValues(), cdc.size(), 0, false, null, null, null);
            parts.add(() -> withCommit(context.readRows(endState, asAdd,
                ChangeDataWriter.withChangeType(dataSchema)), version, ts, null));
          }
        }
        continue;
      }
      Map<String, RemoveFile> removed = new HashMap<>();
      for (Action a : actions) {
        if (a instanceof RemoveFile remove && remove.dataChange()) {
          removed.put(context.canonicalPath(remove.path()), remove);
        }
      }
      for (Action a : actions) {
        if (a instanceof AddFile add && add.dataChange()) {
          RemoveFile before = removed.remove(context.canonicalPath(add.path()));
          if (before == null) {
            parts.add(() -> withCommit(context.readRows(endState, add, dataSchema), version, ts,
                ChangeDataWriter.INSERT));
          } else {
            parts.add(() -> withCommit(newlyDeleted(asAdd(before), add), version, ts, ChangeDataWriter.DELETE));
          }
        }
      }
      for (RemoveFile remove : removed.values()) {
        parts.add(() -> withCommit(context.readRows(endState, asAdd(remove), dataSchema), version, ts,
            ChangeDataWriter.DELETE));
      }
    }
    var it = parts.iterator();
    return RowIterators.concat(new java.util.Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public CloseableIterator<Row> next() {
        return it.next().get();
      }
    });
  }

  /** The removed version of a data file as an add (with the deletion vector it had then). */
  private static AddFile asAdd(RemoveFile remove) {
    return new AddFile(remove.path(), remove.partitionValues(), remove.size() == null ? -1 : remove.size(), 0, false,
        null, null, remove.deletionVectorJson());
  }

  /**
   * A data file removed and added again in one commit with a new deletion vector (a DELETE, UPDATE or MERGE that
   * keeps the file): its change is the rows the new DV deletes and the old one did not, never the whole file.
   */
  private CloseableIterator<Row> newlyDeleted(AddFile before, AddFile after) {
    DeletedRows gone = context.deletedRows(after).minus(context.deletedRows(before));
    CloseableIterator<IndexedRow> rows = context.readIndexedRows(endState, before, dataSchema);
    return RowIterators.filter(rows, r -> gone.contains(r.index())).map(IndexedRow::row);
  }

  /** Appends {@code _change_type} (when given) and the commit columns to each row. */
  private static CloseableIterator<Row> withCommit(CloseableIterator<Row> rows, long version, Instant ts, String changeType) {
    return rows.map(r -> {
      int n = r.size();
      int extra = changeType == null ? 2 : 3;
      Object[] out = new Object[n + extra];
      for (int i = 0; i < n; i++) {
        out[i] = r.get(i);
      }
      int k = n;
      if (changeType != null) {
        out[k++] = changeType;
      }
      out[k++] = version;
      out[k] = ts;
      return Row.of(out);
    });
  }
}
