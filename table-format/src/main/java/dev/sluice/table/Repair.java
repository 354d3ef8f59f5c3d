package dev.sluice.table;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.exceptions.ConcurrentModificationException;
import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.internal.txn.OptimisticTransaction;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Removes from the table the data files its log references that no longer exist in the store, as
 * Databricks' {@code FSCK REPAIR TABLE} does: one commit of {@code remove} actions, after which the
 * table reads again without the rows those files held. With {@link #dryRun} it only lists them.
 *
 * <p>The removes carry {@code dataChange=false}: the missing rows cannot be read, so no change data
 * can be produced for them, and streams reading this table go on (as after a compaction) instead of
 * stopping at a change commit they could not process either.
 */
public final class Repair {
  /** The operation name in {@code commitInfo}. */
  public static final String OPERATION = "FSCK";

  private final TableContext context;
  private boolean dryRun;
  private int retries = 3;

  Repair(TableContext context) {
    this.context = context;
  }

  /** Only find the missing files; commit nothing (default false). */
  public Repair dryRun(boolean value) {
    this.dryRun = value;
    return this;
  }

  /** How often to start again from a fresh snapshot after a conflicting concurrent commit (default 3). */
  public Repair retries(int count) {
    this.retries = count;
    return this;
  }

  /**
   * Checks every live file of the latest snapshot and, unless a dry run, commits the removal of the missing ones
   * (nothing when none is missing).
   *
   * @throws dev.sluice.table.exceptions.TableNotFoundException when there is no table at the path
   * @throws ConcurrentModificationException when concurrent commits conflicted more than {@code retries} times
   */
  public Result execute() {
    return ConflictRetries.run(retries, this::attempt);
  }

  private Result attempt() {
    SnapshotState snapshot = context.latestState();
    List<AddFile> missing = missingFiles(snapshot);
    List<DataFile> files = missing.stream().map(context::dataFile).toList();
    if (dryRun || missing.isEmpty()) {
      return new Result(dryRun, snapshot.version(), OptionalLong.empty(), files);
    }
    OptimisticTransaction txn = context.newTransaction(snapshot);
    long now = context.clock().millis();
    missing.forEach(add -> txn.remove(add.toRemove(now, false /* dataChange */)));
    Map<String, String> metrics = new LinkedHashMap<>(OptimisticTransaction.metrics("numRemovedFiles", missing.size()));
    new Result(false, snapshot.version(), OptionalLong.empty(), files).missingRows()
        .ifPresent(rows -> metrics.put("numMissingRows", Long.toString(rows)));
    long version = txn.commit(OPERATION, Map.of("mode", "repair"), metrics);
    return new Result(false, snapshot.version(), OptionalLong.of(version), files);
  }

  /** One listing of the table's folder instead of a request per file; files outside it are asked one by one. */
  private List<AddFile> missingFiles(SnapshotState snapshot) {
    ObjectStore store = context.log().store();
    String root = context.log().tablePath();
    String prefix = root.isEmpty() ? "" : root + "/";
    Set<String> present = new HashSet<>();
    try (CloseableIterator<ObjectStatus> it = store.list(prefix)) {
      it.forEachRemaining(s -> present.add(s.key()));
    }
    List<AddFile> missing = new ArrayList<>();
    for (AddFile add : snapshot.activeFiles().values()) {
      String key = context.keyOf(add.path());
      boolean exists = key.startsWith(prefix) ? present.contains(key) : store.status(key).isPresent();
      if (!exists) {
        missing.add(add);
      }
    }
    return missing;
  }

  /**
   * What a repair found and did.
   *
   * @param dryRun whether it only looked
   * @param readVersion the version whose files were checked
   * @param committedVersion the version that removed the missing files; empty for a dry run or when none was missing
   * @param missingFiles the live files that do not exist in the store
   */
  public record Result(boolean dryRun, long readVersion, OptionalLong committedVersion, List<DataFile> missingFiles) {
    public Result {
      missingFiles = List.copyOf(missingFiles);
    }

    /** The rows the missing files held (from their stats), or empty when a missing file has no row count. */
    public OptionalLong missingRows() {
      long total = 0;
      for (DataFile f : missingFiles) {
        if (f.numRecords().isEmpty()) {
          return OptionalLong.empty();
        }
        total += f.numRecords().getAsLong();
      }
      return OptionalLong.of(total);
    }
  }
}
