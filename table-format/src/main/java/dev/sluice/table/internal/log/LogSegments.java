package dev.sluice.table.internal.log;

import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.TableNotFoundException;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Finds the {@link LogSegment} of a version: the newest complete checkpoint at or before it plus the commits after. */
public final class LogSegments {
  private LogSegments() {}

  /**
   * The segment of {@code targetVersion}, or of the latest version when empty. {@code _last_checkpoint}
   * only narrows the listing; when it is missing, corrupt, stale or newer than the target, the log is
   * listed from version 0.
   *
   * @throws TableNotFoundException if there is no {@code _delta_log} or it holds no commit
   * @throws InvalidTableException if a commit file between the checkpoint and the target is missing
   * @throws dev.sluice.table.exceptions.InvalidOperationException if the target is newer than the latest
   *     version or older than the earliest reconstructable one
   */
  public static LogSegment build(ObjectStore store, String logPath, OptionalLong targetVersion) {
    long start = LastCheckpoint.read(store, logPath)
        .map(LastCheckpoint::version)
        .filter(v -> targetVersion.isEmpty() || v <= targetVersion.getAsLong())
        .orElse(0L);
    LogListing listing = LogListing.list(store, logPath, start);
    if (start > 0 && (listing.isEmpty() || listing.newestCompleteCheckpoint(
        targetVersion.orElse(listing.latestVersion())).isEmpty())) {
      // The hint points at a checkpoint that is gone or incomplete: fall back to the full listing.
      listing = LogListing.list(store, logPath, 0);
    }
    if (listing.commits.isEmpty()) {
      throw noTable(store, logPath);
    }
    long latest = listing.latestVersion();
    long target = targetVersion.orElse(latest);
    if (target > latest) {
      throw new dev.sluice.table.exceptions.InvalidOperationException("Cannot load version " + target + " of the table at "
          + tableUri(store, logPath) + ": the latest version is " + latest + ". Versions "
          + availableRange(store, logPath, latest) + " are available.");
    }
    Optional<List<ObjectStatus>> checkpoint = listing.newestCompleteCheckpoint(target);
    if (checkpoint.isEmpty() && listing.from > 0) {
      listing = LogListing.list(store, logPath, 0);
      checkpoint = listing.newestCompleteCheckpoint(target);
    }
    long first = checkpoint.map(parts -> FileNames.versionOf(parts.get(0).key()) + 1).orElse(0L);
    if (checkpoint.isEmpty() && !listing.commits.containsKey(0L)) {
      Optional<Long> earliest = listing.earliestReconstructable();
      if (earliest.isPresent() && target < earliest.get()) {
        throw new dev.sluice.table.exceptions.InvalidOperationException("Cannot load version " + target
            + " of the table at " + tableUri(store, logPath) + ": its log files were cleaned up. Versions "
            + earliest.get() + " to " + latest + " are available.");
      }
    }
    List<ObjectStatus> deltas = new ArrayList<>();
    for (long v = first; v <= target; v++) {
      ObjectStatus commit = listing.commits.get(v);
      if (commit == null) {
        throw new InvalidTableException("The Delta log of the table at " + tableUri(store, logPath)
            + " is missing the commit file " + FileNames.baseName(FileNames.deltaFile(logPath, v)) + " (version " + v
            + ") needed to reconstruct version " + target + "; versions must be contiguous. Restore the file,"
            + " or if it was deleted on purpose, read a version after the next checkpoint.");
      }
      deltas.add(commit);
    }
    long timestamp = monotonisedTimestamp(listing, target, checkpoint.orElse(List.of()));
    return new LogSegment(logPath, target, checkpoint.orElse(List.of()), deltas, timestamp);
  }

  /** The latest version, from the hint and one listing; empty if there is no table. */
  static OptionalLong latestVersion(ObjectStore store, String logPath) {
    long start = LastCheckpoint.read(store, logPath).map(LastCheckpoint::version).orElse(0L);
    LogListing listing = LogListing.list(store, logPath, start);
    if (listing.commits.isEmpty() && start > 0) {
      listing = LogListing.list(store, logPath, 0);
    }
    return listing.commits.isEmpty() ? OptionalLong.empty() : OptionalLong.of(listing.latestVersion());
  }

  private static long monotonisedTimestamp(LogListing listing, long target, List<ObjectStatus> checkpoint) {
    long previous = Long.MIN_VALUE;
    for (ObjectStatus commit : listing.commits.headMap(target, true).values()) {
      previous = previous == Long.MIN_VALUE ? commit.modificationTime()
          : Math.max(commit.modificationTime(), previous + 1);
    }
    if (previous == Long.MIN_VALUE) {
      // Only the checkpoint is left of this version: its file time is the best estimate.
      return checkpoint.isEmpty() ? 0L : checkpoint.get(0).modificationTime();
    }
    return previous;
  }

  static TableNotFoundException noTable(ObjectStore store, String logPath) {
    boolean exists = LogListing.logExists(store, logPath);
    return new TableNotFoundException("No Delta table at " + tableUri(store, logPath) + ": "
        + (exists ? store.uriOf(logPath) + " holds no commit file" : "there is no " + store.uriOf(logPath) + " folder")
        + ". Check the table path, or create the table first.");
  }

  static String tableUri(ObjectStore store, String logPath) {
    String table = logPath.endsWith(FileNames.LOG_DIR)
        ? logPath.substring(0, logPath.length() - FileNames.LOG_DIR.length()) : logPath;
    return store.uriOf(table).toString();
  }

  private static String availableRange(ObjectStore store, String logPath, long latest) {
    return LogListing.list(store, logPath, 0).earliestReconstructable().orElse(0L) + " to " + latest;
  }
}
