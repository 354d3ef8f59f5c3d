package dev.sluice.table.internal.log;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/** The commit and checkpoint files of a log from some version on, as one sorted listing found them. */
final class LogListing {
  /** version → commit file */
  final NavigableMap<Long, ObjectStatus> commits = new TreeMap<>();
  /** version → parts count → part number → file; a set is complete when it has all its parts */
  final NavigableMap<Long, Map<Integer, Map<Integer, ObjectStatus>>> checkpoints = new TreeMap<>();
  final long from;

  private LogListing(long from) {
    this.from = from;
  }

  /** Lists {@code logPath} from {@code fromVersion}; files in sub-folders (sidecars, staged commits) are skipped. */
  static LogListing list(ObjectStore store, String logPath, long fromVersion) {
    LogListing out = new LogListing(fromVersion);
    String dirPrefix = logPath + "/";
    try (CloseableIterator<ObjectStatus> it = store.list(dirPrefix, FileNames.listingPrefix(logPath, fromVersion))) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        String name = s.key().substring(dirPrefix.length());
        if (name.indexOf('/') >= 0) {
          continue;
        }
        if (FileNames.isCommitFile(name)) {
          out.commits.put(FileNames.versionOf(name), s);
        } else if (FileNames.isCheckpointFile(name)) {
          int parts = FileNames.checkpointParts(name);
          out.checkpoints.computeIfAbsent(FileNames.versionOf(name), v -> new TreeMap<>())
              .computeIfAbsent(parts, p -> new TreeMap<>())
              .put(FileNames.checkpointPart(name).orElse(1), s);
        }
      }
    }
    return out;
  }

  /** Whether the folder holds anything at all (used to tell "no table" from "empty listing from v"). */
  static boolean logExists(ObjectStore store, String logPath) {
    try (CloseableIterator<ObjectStatus> it = store.list(logPath + "/")) {
      return it.hasNext();
    }
  }

  boolean isEmpty() {
    return commits.isEmpty() && checkpoints.isEmpty();
  }

  /** The newest version any file is for. */
  long latestVersion() {
    long latest = -1;
    if (!commits.isEmpty()) {
      latest = commits.lastKey();
    }
    if (!checkpoints.isEmpty()) {
      latest = Math.max(latest, checkpoints.lastKey());
    }
    return latest;
  }

  /** The parts of the newest complete checkpoint at or before {@code version}, in part order. */
  Optional<List<ObjectStatus>> newestCompleteCheckpoint(long version) {
    for (Map.Entry<Long, Map<Integer, Map<Integer, ObjectStatus>>> e : checkpoints.headMap(version, true)
        .descendingMap().entrySet()) {
      Optional<List<ObjectStatus>> complete = completeSet(e.getValue());
      if (complete.isPresent()) {
        return complete;
      }
    }
    return Optional.empty();
  }

  /** The oldest version that can be reconstructed from this listing: version 0's commit or a complete checkpoint. */
  Optional<Long> earliestReconstructable() {
    if (commits.containsKey(0L)) {
      return Optional.of(0L);
    }
    for (Map.Entry<Long, Map<Integer, Map<Integer, ObjectStatus>>> e : checkpoints.entrySet()) {
      if (completeSet(e.getValue()).isPresent()) {
        return Optional.of(e.getKey());
      }
    }
    return Optional.empty();
  }

  private static Optional<List<ObjectStatus>> completeSet(Map<Integer, Map<Integer, ObjectStatus>> byParts) {
    // A single file wins over a multi-part set of the same version: it is one read.
    for (Map.Entry<Integer, Map<Integer, ObjectStatus>> set : byParts.entrySet()) {
      if (set.getValue().size() == set.getKey()) {
        return Optional.of(new ArrayList<>(set.getValue().values()));
      }
    }
    return Optional.empty();
  }
}
