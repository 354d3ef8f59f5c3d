package dev.sluice.ingestion.state.internal;

import java.util.NavigableSet;
import java.util.OptionalLong;

/** The versions that have a delta file and those that have a snapshot file in a state folder. */
record StateFileListing(NavigableSet<Long> deltas, NavigableSet<Long> snapshots) {
  /** The newest snapshot at or below {@code version}. */
  OptionalLong latestSnapshotAtOrBelow(long version) {
    Long v = snapshots.floor(version);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }
}
