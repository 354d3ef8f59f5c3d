package dev.sluice.table.internal.log;

import dev.sluice.table.exceptions.InvalidOperationException;
import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.exceptions.ObjectNotFoundException;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.ActionParser;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.replay.LogReplay;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The log of one table: snapshots (latest, by version, by timestamp), single commits, history and
 * checkpoints. Holds no mutable state, so one instance may be shared between threads.
 */
public final class DeltaLog {
  private final ObjectStore store;
  private final String tablePath;
  private final String logPath;

  /** {@code tablePath} is the table root's key in {@code store} (e.g. {@code bronze/orders}). */
  public DeltaLog(ObjectStore store, String tablePath) {
    this.store = store;
    this.tablePath = tablePath;
    this.logPath = FileNames.logPath(tablePath);
  }

  public ObjectStore store() {
    return store;
  }

  public String tablePath() {
    return tablePath;
  }

  public String logPath() {
    return logPath;
  }

  /** Whether the log holds at least one commit. */
  public boolean exists() {
    return latestVersion().isPresent();
  }

  /** The latest committed version, from {@code _last_checkpoint} and one listing; empty if there is no table. */
  public OptionalLong latestVersion() {
    return LogSegments.latestVersion(store, logPath);
  }

  /**
   * The latest version's state.
   *
   * @throws dev.sluice.table.exceptions.TableNotFoundException if there is no table
   * @throws InvalidTableException if the log is incomplete or corrupt
   * @throws dev.sluice.table.exceptions.UnsupportedTableFeatureException if Sluice cannot read the table
   */
  public SnapshotState snapshot() {
    return LogReplay.replay(store, tablePath, LogSegments.build(store, logPath, OptionalLong.empty()));
  }

  /**
   * The state at {@code version}.
   *
   * @throws InvalidOperationException if the version is negative, newer than the latest or no longer reconstructable
   */
  public SnapshotState snapshotAt(long version) {
    if (version < 0) {
      throw new InvalidOperationException("Cannot load version " + version + " of " + tableUri()
          + ": versions start at 0.");
    }
    return LogReplay.replay(store, tablePath, LogSegments.build(store, logPath, OptionalLong.of(version)));
  }

  /**
   * The state of the latest commit whose timestamp is at or before {@code epochMillis}; commit timestamps
   * are as in {@link #commitTimestamp(long)}.
   *
   * @throws InvalidOperationException if the time is before the first or after the last commit
   */
  public SnapshotState snapshotAsOf(long epochMillis) {
    NavigableMap<Long, Long> timeline = timeline();
    long firstVersion = timeline.firstKey();
    long lastVersion = timeline.lastKey();
    long first = timeline.firstEntry().getValue();
    long last = timeline.lastEntry().getValue();
    if (epochMillis < first || epochMillis > last) {
      throw new InvalidOperationException("Cannot load " + tableUri() + " as of " + Instant.ofEpochMilli(epochMillis)
          + ": the time is " + (epochMillis < first ? "before the earliest available commit" : "after the latest commit")
          + ". Commits from " + Instant.ofEpochMilli(first) + " (version " + firstVersion + ") to "
          + Instant.ofEpochMilli(last) + " (version " + lastVersion + ") are available.");
    }
    long version = firstVersion;
    for (Map.Entry<Long, Long> e : timeline.entrySet()) {
      if (e.getValue() <= epochMillis) {
        version = e.getKey();
      } else {
        break;
      }
    }
    return snapshotAt(version);
  }

  /**
   * The latest state, reusing {@code base} when nothing was committed since, and otherwise applying
   * only the newer commits to it.
   */
  public SnapshotState update(SnapshotState base) {
    LogSegment segment = LogSegments.build(store, logPath, OptionalLong.empty());
    if (segment.version() == base.version()) {
      return base;
    }
    if (segment.version() < base.version()) {
      throw new InvalidTableException("The table at " + tableUri() + " went back from version " + base.version()
          + " to " + segment.version() + ": commit files were deleted. Restore them; a table's log never shrinks.");
    }
    return LogReplay.advance(store, base, segment).orElseGet(() -> LogReplay.replay(store, tablePath, segment));
  }

  /**
   * The latest state, from {@code base} read by another table object (see {@link
   * dev.sluice.table.internal.replay.SharedSnapshots}): used only when the log still lists the very commit file
   * {@code base} ended with (same size and modification time), so that a table deleted and created again at the
   * same path is replayed afresh, never advanced from the old one's state.
   */
  public SnapshotState updateFromShared(SnapshotState base) {
    LogSegment segment = LogSegments.build(store, logPath, OptionalLong.empty());
    if (!endsWithin(base.segment(), segment)) {
      return LogReplay.replay(store, tablePath, segment);
    }
    if (segment.version() == base.version()) {
      return base;
    }
    return LogReplay.advance(store, base, segment).orElseGet(() -> LogReplay.replay(store, tablePath, segment));
  }

  /** Whether {@code newer} lists the last file of {@code older}, unchanged. */
  private static boolean endsWithin(LogSegment older, LogSegment newer) {
    List<ObjectStatus> files = older.deltas().isEmpty() ? older.checkpoint() : older.deltas();
    if (files.isEmpty() || newer.version() < older.version()) {
      return false;
    }
    ObjectStatus last = files.get(files.size() - 1);
    for (ObjectStatus f : older.deltas().isEmpty() ? newer.checkpoint() : newer.deltas()) {
      if (f.key().equals(last.key())) {
        return f.size() == last.size() && f.modificationTime() == last.modificationTime();
      }
    }
    return false;
  }

  /**
   * The actions of one commit, in file order.
   *
   * @throws ObjectNotFoundException if the commit file does not exist
   */
  public List<Action> readCommit(long version) {
    return tryReadCommit(version).orElseThrow(() -> new ObjectNotFoundException("Cannot read version " + version
        + " of " + tableUri() + ": " + store.uriOf(FileNames.deltaFile(logPath, version)) + " does not exist"
        + " (never committed, or removed by log cleanup)."));
  }

  /** The actions of one commit, or empty if its file does not exist. */
  public Optional<List<Action>> tryReadCommit(long version) {
    String key = FileNames.deltaFile(logPath, version);
    byte[] bytes;
    try {
      bytes = store.read(key);
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
    return Optional.of(ActionParser.parseCommit(bytes, store.uriOf(key).toString()));
  }

  /**
   * When {@code version} was committed (epoch ms): its {@code commitInfo.inCommitTimestamp} if the table
   * uses in-commit timestamps, else its commit file's modification time, made strictly increasing over
   * the listed commits (a time not after the previous commit's becomes the previous one plus 1 ms).
   *
   * @throws ObjectNotFoundException if the commit file does not exist
   */
  public long commitTimestamp(long version) {
    Long ts = timeline().get(version);
    if (ts == null) {
      throw new ObjectNotFoundException("Cannot tell when version " + version + " of " + tableUri()
          + " was committed: its commit file does not exist.");
    }
    return ts;
  }

  /**
   * version → commit time (epoch ms, as in {@link #commitTimestamp(long)}) of every commit from the
   * earliest reconstructable one on, ascending; one listing (plus commit reads for in-commit timestamps).
   *
   * @throws dev.sluice.table.exceptions.TableNotFoundException if there is no table
   */
  public NavigableMap<Long, Long> commitTimeline() {
    return java.util.Collections.unmodifiableNavigableMap(timeline());
  }

  /** Up to {@code limit} commits, newest first. */
  public List<HistoryEntry> history(int limit) {
    List<HistoryEntry> out = new ArrayList<>();
    for (Map.Entry<Long, Long> e : timeline().descendingMap().entrySet()) {
      if (out.size() >= limit) {
        break;
      }
      CommitInfo info = tryReadCommit(e.getKey()).orElse(List.of()).stream()
          .filter(a -> a instanceof CommitInfo).map(a -> (CommitInfo) a).findFirst().orElse(null);
      out.add(new HistoryEntry(e.getKey(), e.getValue(), info));
    }
    return out;
  }

  /** Writes a classic checkpoint of {@code state} and points {@code _last_checkpoint} at it. */
  public Checkpoints.Written checkpoint(SnapshotState state) {
    return Checkpoints.write(store, logPath, state);
  }

  /** version → commit timestamp of every commit file in the log, ascending. */
  private NavigableMap<Long, Long> timeline() {
    LogListing listing = LogListing.list(store, logPath, 0);
    if (listing.commits.isEmpty()) {
      throw LogSegments.noTable(store, logPath);
    }
    long earliest = listing.earliestReconstructable().orElse(listing.commits.firstKey());
    boolean inCommitTimestamps = newestHasInCommitTimestamp(listing);
    NavigableMap<Long, Long> out = new TreeMap<>();
    long previous = Long.MIN_VALUE;
    for (Map.Entry<Long, ObjectStatus> e : listing.commits.entrySet()) {
      long ts = e.getValue().modificationTime();
      Long ict = inCommitTimestamps ? LogReplay.inCommitTimestamp(readCommit(e.getKey())) : null;
      // In-commit timestamps are monotonic by protocol; only file times need raising.
      previous = ict != null ? ict : previous == Long.MIN_VALUE ? ts : Math.max(ts, previous + 1);
      if (e.getKey() >= earliest) {
        out.put(e.getKey(), previous);
      }
    }
    return out;
  }

  private boolean newestHasInCommitTimestamp(LogListing listing) {
    return LogReplay.inCommitTimestamp(readCommit(listing.commits.lastKey())) != null;
  }

  private String tableUri() {
    return store.uriOf(tablePath).toString();
  }

  @Override
  public String toString() {
    return "DeltaLog(" + tableUri() + ")";
  }
}
