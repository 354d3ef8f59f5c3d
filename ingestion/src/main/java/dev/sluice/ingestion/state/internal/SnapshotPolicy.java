package dev.sluice.ingestion.state.internal;

/**
 * When a state store writes a snapshot besides every {@code snapshotInterval} versions: as soon as the next start
 * would replay more change records than the state holds keys. A state that evicts (dedup or windows under a
 * watermark) puts and removes far more keys than it keeps, so replaying its changes costs what its history did,
 * while a snapshot costs only what it holds; writing one then keeps a restart's cost bounded by the state's size,
 * and a snapshot is never larger than the changes since the last one.
 */
final class SnapshotPolicy {
  /** Below this many change records a replay is cheap whatever the state's size: no early snapshot. */
  static final long EARLY_SNAPSHOT_MIN_RECORDS = 10_000;

  private SnapshotPolicy() {}

  static boolean snapshotDue(long version, int snapshotInterval, long recordsSinceSnapshot, long keys) {
    return version % snapshotInterval == 0
        || (recordsSinceSnapshot >= EARLY_SNAPSHOT_MIN_RECORDS && evictionDriven(recordsSinceSnapshot, keys));
  }

  /** Whether the changes since the last snapshot outnumber the keys held: most of them put what was later removed. */
  static boolean evictionDriven(long recordsSinceSnapshot, long keys) {
    return recordsSinceSnapshot > keys;
  }
}
