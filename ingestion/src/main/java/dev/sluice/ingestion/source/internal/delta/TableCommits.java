package dev.sluice.ingestion.source.internal.delta;

import dev.sluice.table.DataFile;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.AddCdcFile;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;

/**
 * Reads a table's log for a stream: single commits and snapshots, kept in a small cache because
 * planning a batch and reading it visit the same versions. Fails loudly on a version the log no
 * longer has and on a schema change the stream's fixed schema cannot read.
 */
final class TableCommits {
  private static final int CACHED_VERSIONS = 128;

  private final Table table;
  private final DeltaLog log;
  private final TableContext context;
  private final String description;
  private final Snapshot schemaSnapshot;
  private final Map<Long, CommitChanges> commits = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, CommitChanges> eldest) {
      return size() > CACHED_VERSIONS;
    }
  };
  private Snapshot snapshot;
  private List<DataFile> snapshotFiles;

  TableCommits(Table table, Snapshot schemaSnapshot, String description) {
    this.table = table;
    this.log = new DeltaLog(table.store(), table.path());
    this.context = new TableContext(log);
    this.schemaSnapshot = schemaSnapshot;
    this.description = description;
  }

  long latestVersion() {
    return log.latestVersion().orElse(-1);
  }

  /** version → commit time (ms) from the earliest reconstructable version on. */
  NavigableMap<Long, Long> timeline() {
    return log.commitTimeline();
  }

  /** The snapshot at {@code version} (the initial snapshot of a query). */
  Snapshot snapshot(long version) {
    if (snapshot == null || snapshot.version() != version) {
      Snapshot s;
      try {
        s = table.snapshotAt(version);
      } catch (InvalidOperationException | InvalidTableException | ObjectNotFoundException e) {
        throw DeltaSourceErrors.versionGone(description, version, earliestVersion(), e);
      }
      if (version > schemaSnapshot.version()) {
        checkSchema(version, s.schema());
      }
      snapshotFiles = s.files().stream()
          .sorted(Comparator.comparingLong(DataFile::modificationTime).thenComparing(DataFile::logPath))
          .toList();
      snapshot = s;
    }
    return snapshot;
  }

  /** The live files of the snapshot at {@code version}, ordered by modification time then path (as Spark). */
  List<DataFile> snapshotFiles(long version) {
    snapshot(version);
    return snapshotFiles;
  }

  /**
   * The stream's view of commit {@code version}.
   *
   * @throws IllegalStateException if the commit file is gone or the commit changes the schema incompatibly
   */
  CommitChanges commit(long version) {
    CommitChanges cached = commits.get(version);
    if (cached != null) {
      return cached;
    }
    Optional<List<Action>> actions = log.tryReadCommit(version);
    if (actions.isEmpty()) {
      throw DeltaSourceErrors.versionGone(description, version, earliestVersion(), null);
    }
    CommitChanges changes = changesOf(version, actions.get());
    commits.put(version, changes);
    return changes;
  }

  private CommitChanges changesOf(long version, List<Action> actions) {
    List<DataFile> added = new ArrayList<>();
    boolean removesData = false;
    String operation = null;
    int dataFiles = 0;
    long dataBytes = 0;
    int cdcFiles = 0;
    long cdcBytes = 0;
    for (Action a : actions) {
      if (a instanceof AddFile add && add.dataChange()) {
        added.add(context.dataFile(add));
        dataFiles++;
        dataBytes += add.size();
      } else if (a instanceof RemoveFile remove && remove.dataChange()) {
        removesData = true;
        dataFiles++;
        dataBytes += remove.size() == null ? 0 : remove.size();
      } else if (a instanceof AddCdcFile cdc) {
        cdcFiles++;
        cdcBytes += cdc.size();
      } else if (a instanceof CommitInfo info) {
        operation = info.operation();
      } else if (a instanceof Metadata metadata && version > schemaSnapshot.version()) {
        // Older versions are read with the schema the query started with, which already covers them.
        checkSchema(version, metadata.schema());
      }
    }
    // The change feed reads only cdc files when a version has them (Delta's reader rule).
    return cdcFiles > 0
        ? new CommitChanges(version, operation, added, removesData, cdcFiles, cdcBytes)
        : new CommitChanges(version, operation, added, removesData, dataFiles, dataBytes);
  }

  /** Every column the stream reads must still exist with the same type; new columns are fine. */
  private void checkSchema(long version, StructType newSchema) {
    List<String> problems = new ArrayList<>();
    for (StructField f : schemaSnapshot.schema().fields()) {
      Optional<StructField> now = newSchema.field(f.name());
      if (now.isEmpty()) {
        problems.add("column " + f.name() + " was dropped or renamed");
      } else if (!now.get().type().equals(f.type())) {
        problems.add("column " + f.name() + " changed type from " + f.type().typeName() + " to "
            + now.get().type().typeName());
      } else if (!f.nullable() && now.get().nullable()) {
        problems.add("column " + f.name() + " became nullable");
      }
    }
    if (!problems.isEmpty()) {
      throw DeltaSourceErrors.schemaChanged(description, version, problems);
    }
  }

  private long earliestVersion() {
    try {
      NavigableMap<Long, Long> timeline = log.commitTimeline();
      return timeline.isEmpty() ? -1 : timeline.firstKey();
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
