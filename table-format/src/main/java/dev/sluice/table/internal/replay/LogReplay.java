package dev.sluice.table.internal.replay;

import dev.sluice.table.exceptions.InvalidTableException;
import dev.sluice.table.internal.actions.Action;
import dev.sluice.table.internal.actions.ActionParser;
import dev.sluice.table.internal.actions.AddFile;
import dev.sluice.table.internal.actions.CommitInfo;
import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.actions.Protocol;
import dev.sluice.table.internal.actions.RemoveFile;
import dev.sluice.table.internal.actions.SetTransaction;
import dev.sluice.table.internal.log.Checkpoints;
import dev.sluice.table.internal.log.LogSegment;
import dev.sluice.table.internal.log.ProtocolSupport;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.internal.dv.DeletionVectorDescriptor;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reconciles a {@link LogSegment} into a {@link SnapshotState}. Files are read newest to oldest
 * (commits descending, then the checkpoint), and the first action seen for a key wins:
 *
 * <ol>
 *   <li>{@code protocol} and {@code metaData}: the newest one.
 *   <li>{@code txn}: the newest one per {@code appId}.
 *   <li>{@code add} / {@code remove}: the newest action per canonical path ({@link FilePaths}); an
 *       {@code add} makes the file live, a {@code remove} makes it a tombstone, and an older action on
 *       the same path is ignored (so add → remove → re-add leaves the file live).
 *   <li>Tombstones whose {@code deletionTimestamp} (0 when absent) is older than now minus
 *       {@code delta.deletedFileRetentionDuration} (default 1 week) are dropped; they still hide older adds.
 *   <li>{@code commitInfo} and {@code cdc} do not contribute to state; the target version's
 *       {@code commitInfo.inCommitTimestamp}, when present, is the snapshot timestamp.
 * </ol>
 *
 * A state without protocol or metaData is refused, and so is a protocol Sluice cannot read.
 */
public final class LogReplay {
  private LogReplay() {}

  /**
   * The state of the segment's version.
   *
   * @param tablePath the table's key in {@code store}
   * @throws InvalidTableException if a file is malformed or protocol or metaData is missing
   * @throws dev.sluice.table.exceptions.UnsupportedTableFeatureException if the table needs features Sluice lacks
   */
  public static SnapshotState replay(ObjectStore store, String tablePath, LogSegment segment) {
    URI root = FilePaths.rootOf(store.uriOf(tablePath));
    Reconciler r = new Reconciler(root);
    List<ObjectStatus> deltas = segment.deltas();
    Long inCommitTimestamp = null;
    for (int i = deltas.size() - 1; i >= 0; i--) {
      ObjectStatus file = deltas.get(i);
      List<Action> actions = ActionParser.parseCommit(store.read(file.key()), store.uriOf(file.key()).toString());
      if (i == deltas.size() - 1) {
        inCommitTimestamp = inCommitTimestamp(actions);
      }
      r.acceptNewestFirst(actions);
    }
    for (int i = segment.checkpoint().size() - 1; i >= 0; i--) {
      r.acceptNewestFirst(Checkpoints.read(store, segment.checkpoint().get(i)));
    }
    String table = root.toString();
    if (r.protocol == null) {
      throw missing("protocol", table, segment);
    }
    ProtocolSupport.checkReadable(r.protocol, r.metadata, table);
    if (r.metadata == null) {
      throw missing("metaData", table, segment);
    }
    long timestamp = inCommitTimestamp != null ? inCommitTimestamp : segment.lastCommitTimestamp();
    return new SnapshotState(root, segment.version(), timestamp, r.protocol, r.metadata, reversed(r.active),
        reversed(r.tombstones(retentionMillis(r.metadata), System.currentTimeMillis())), r.txns, segment);
  }

  /**
   * The state of {@code newer.version()} computed from {@code base} by applying only the commits after
   * it (oldest first, so a later action on a path replaces an earlier one). Empty when {@code newer}
   * does not hold every commit after {@code base} (e.g. it starts from a newer checkpoint): replay it fully.
   */
  public static java.util.Optional<SnapshotState> advance(ObjectStore store, SnapshotState base, LogSegment newer) {
    List<ObjectStatus> commits = newer.deltas().stream()
        .filter(s -> dev.sluice.table.internal.log.FileNames.versionOf(s.key()) > base.version()).toList();
    long firstNeeded = base.version() + 1;
    if (commits.isEmpty() || dev.sluice.table.internal.log.FileNames.versionOf(commits.get(0).key()) != firstNeeded
        || commits.size() != newer.version() - base.version()) {
      return java.util.Optional.empty();
    }
    URI root = base.tableRoot();
    Map<String, AddFile> active = new LinkedHashMap<>(base.activeFiles());
    Map<String, RemoveFile> removed = new LinkedHashMap<>(base.tombstones());
    Map<String, SetTransaction> txns = new LinkedHashMap<>(base.transactions());
    Protocol protocol = base.protocol();
    Metadata metadata = base.metadata();
    Long inCommitTimestamp = null;
    for (ObjectStatus file : commits) {
      List<Action> actions = ActionParser.parseCommit(store.read(file.key()), store.uriOf(file.key()).toString());
      inCommitTimestamp = inCommitTimestamp(actions);
      for (Action a : actions) {
        if (a instanceof AddFile add) {
          String key = canonical(root, add.path());
          removed.remove(logicalKey(key, add.deletionVectorJson()));
          active.remove(key);
          active.put(key, add);
        } else if (a instanceof RemoveFile remove) {
          String key = canonical(root, remove.path());
          AddFile live = active.get(key);
          if (live != null && sameDv(live.deletionVectorJson(), remove.deletionVectorJson(), key)) {
            active.remove(key);
          }
          String logical = logicalKey(key, remove.deletionVectorJson());
          removed.remove(logical);
          removed.put(logical, remove);
        } else if (a instanceof SetTransaction txn) {
          txns.remove(txn.appId());
          txns.put(txn.appId(), txn);
        } else if (a instanceof Protocol p) {
          protocol = p;
        } else if (a instanceof Metadata m) {
          metadata = m;
        }
      }
    }
    ProtocolSupport.checkReadable(protocol, metadata, root.toString());
    long cutoff = System.currentTimeMillis() - retentionMillis(metadata);
    removed.values().removeIf(r -> (r.deletionTimestamp() == null ? 0L : r.deletionTimestamp()) <= cutoff);
    long timestamp = inCommitTimestamp != null ? inCommitTimestamp : newer.lastCommitTimestamp();
    return java.util.Optional.of(new SnapshotState(root, newer.version(), timestamp, protocol, metadata, active,
        removed, txns, newer));
  }

  /**
   * A logical file's key: its path and its deletion vector's unique id (PROTOCOL.md, Action Reconciliation), so
   * that {@code remove(p, dv1)} does not cancel {@code add(p, dv2)} of the same data file. Active files stay keyed
   * by path alone: a snapshot holds at most one version of each data file.
   */
  static String logicalKey(String canonicalPath, String deletionVectorJson) {
    return deletionVectorJson == null ? canonicalPath
        : canonicalPath + "#dv:" + DeletionVectorDescriptor.parse(deletionVectorJson, canonicalPath).uniqueId();
  }

  private static boolean sameDv(String a, String b, String path) {
    return java.util.Objects.equals(a == null ? null : DeletionVectorDescriptor.parse(a, path).uniqueId(),
        b == null ? null : DeletionVectorDescriptor.parse(b, path).uniqueId());
  }

  private static String canonical(URI root, String path) {
    try {
      return FilePaths.canonicalize(root, path);
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException(e.getMessage() + " (table " + root + ")", e);
    }
  }

  /** {@code commitInfo.inCommitTimestamp} of a commit's actions, or null. */
  public static Long inCommitTimestamp(List<Action> actions) {
    for (Action a : actions) {
      if (a instanceof CommitInfo ci && ci.extra().get("inCommitTimestamp") instanceof Number n) {
        return n.longValue();
      }
    }
    return null;
  }

  /** {@code delta.deletedFileRetentionDuration} in milliseconds (default 1 week). */
  static long retentionMillis(Metadata metadata) {
    String value = metadata.configuration().get("delta.deletedFileRetentionDuration");
    return value == null ? Intervals.WEEK_MILLIS : Intervals.parseMillis(value, "delta.deletedFileRetentionDuration");
  }

  private static InvalidTableException missing(String action, String table, LogSegment segment) {
    return new InvalidTableException("The table at " + table + " has no " + action + " action at version "
        + segment.version() + " (read " + String.join(", ", segment.fileNames()) + "). The log is incomplete or"
        + " corrupt: a checkpoint or version 0 must contain it. Restore the missing log files.");
  }

  /** Replay collects newest first; the state presents files in log order. */
  private static <V> Map<String, V> reversed(Map<String, V> newestFirst) {
    List<Map.Entry<String, V>> entries = new ArrayList<>(newestFirst.entrySet());
    Collections.reverse(entries);
    Map<String, V> out = new LinkedHashMap<>();
    entries.forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /** The first-seen-wins state machine of one replay. */
  private static final class Reconciler {
    private final URI root;
    private final Set<String> seenPaths = new HashSet<>();
    private final Map<String, AddFile> active = new LinkedHashMap<>();
    private final Map<String, RemoveFile> removed = new LinkedHashMap<>();
    private final Map<String, SetTransaction> txns = new LinkedHashMap<>();
    private Protocol protocol;
    private Metadata metadata;

    Reconciler(URI root) {
      this.root = root;
    }

    /**
     * A file holds at most one action per path, so its order does not change the outcome; reading it
     * backwards makes the final reversal yield log order.
     */
    void acceptNewestFirst(List<Action> fileActions) {
      for (int i = fileActions.size() - 1; i >= 0; i--) {
        accept(fileActions.get(i));
      }
    }

    void accept(Action action) {
      if (action instanceof AddFile add) {
        String key = canonical(add.path());
        if (seenPaths.add(logicalKey(key, add.deletionVectorJson()))) {
          // newest first: an older add of the same data file with another deletion vector is already replaced
          active.putIfAbsent(key, add);
        }
      } else if (action instanceof RemoveFile remove) {
        String key = canonical(remove.path());
        String logical = logicalKey(key, remove.deletionVectorJson());
        if (seenPaths.add(logical)) {
          removed.put(logical, remove);
        }
      } else if (action instanceof SetTransaction txn) {
        txns.putIfAbsent(txn.appId(), txn);
      } else if (action instanceof Protocol p && protocol == null) {
        protocol = p;
      } else if (action instanceof Metadata m && metadata == null) {
        metadata = m;
      }
    }

    private String canonical(String path) {
      return LogReplay.canonical(root, path);
    }

    Map<String, RemoveFile> tombstones(long retentionMillis, long now) {
      long cutoff = now - retentionMillis;
      Map<String, RemoveFile> out = new LinkedHashMap<>();
      removed.forEach((k, v) -> {
        long deleted = v.deletionTimestamp() == null ? 0L : v.deletionTimestamp();
        if (deleted > cutoff) {
          out.put(k, v);
        }
      });
      return out;
    }
  }
}
