package dev.sluice.table.internal.log;

import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import dev.sluice.table.storage.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The log files that expired-log cleanup deletes (Delta's {@code delta.logRetentionDuration}): everything versioned
 * below the newest complete checkpoint whose version was committed before the cutoff. That checkpoint then starts
 * the log, so every version from it on stays readable, and no version older than the cutoff that time travel could
 * still ask for is lost without its replacement checkpoint. Commit times are the monotonised file times, as
 * {@link DeltaLog#commitTimeline()} gives them.
 */
public final class ExpiredLogFiles {
  private static final Pattern CHECKSUM = Pattern.compile("\\d{20}\\.crc");

  private ExpiredLogFiles() {}

  /**
   * @param boundary the checkpoint version the log will start at; empty when nothing has expired
   * @param files the commit, checkpoint and checksum files below it
   */
  public record Plan(OptionalLong boundary, List<ObjectStatus> files) {
    public Plan {
      files = List.copyOf(files);
    }
  }

  public static Plan plan(ObjectStore store, String logPath, long cutoffMillis) {
    LogListing listing = LogListing.list(store, logPath, 0);
    NavigableMap<Long, Long> times = commitTimes(listing);
    long boundary = -1;
    for (Long version : listing.checkpoints.descendingKeySet()) {
      Long committed = times.get(version);
      long when = committed != null ? committed
          : listing.newestCompleteCheckpoint(version).map(p -> p.get(0).modificationTime()).orElse(Long.MAX_VALUE);
      if (when <= cutoffMillis && listing.newestCompleteCheckpoint(version)
          .filter(p -> FileNames.versionOf(p.get(0).key()) == version).isPresent()) {
        boundary = version;
        break;
      }
    }
    if (boundary <= 0) {
      return new Plan(OptionalLong.empty(), List.of());
    }
    List<ObjectStatus> out = new ArrayList<>();
    String dirPrefix = logPath + "/";
    try (CloseableIterator<ObjectStatus> it = store.list(dirPrefix)) {
      while (it.hasNext()) {
        ObjectStatus s = it.next();
        String name = s.key().substring(dirPrefix.length());
        if (name.indexOf('/') >= 0) {
          continue;
        }
        boolean versioned = FileNames.isCommitFile(name) || FileNames.isCheckpointFile(name)
            || CHECKSUM.matcher(name).matches();
        if (versioned && FileNames.versionOf(name) < boundary) {
          out.add(s);
        }
      }
    }
    return new Plan(OptionalLong.of(boundary), out);
  }

  private static NavigableMap<Long, Long> commitTimes(LogListing listing) {
    NavigableMap<Long, Long> out = new TreeMap<>();
    long previous = Long.MIN_VALUE;
    for (Map.Entry<Long, ObjectStatus> e : listing.commits.entrySet()) {
      long ts = e.getValue().modificationTime();
      previous = previous == Long.MIN_VALUE ? ts : Math.max(ts, previous + 1);
      out.put(e.getKey(), previous);
    }
    return out;
  }
}
