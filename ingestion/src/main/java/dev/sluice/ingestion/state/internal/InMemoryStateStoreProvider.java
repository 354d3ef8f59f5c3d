package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one operator partition in a hash map, made durable as one {@code <version>.delta}
 * file per commit and a {@code <version>.snapshot} every {@code snapshotInterval} versions (as
 * Spark's HDFS-backed provider does).
 *
 * <p>The map of the latest committed (or rebuilt) version stays cached: loading version N right
 * after committing N-1 copies nothing. Any other load rebuilds version N-1 from the newest snapshot
 * at or below it plus the deltas after it. The first commit after such a rebuild first deletes the
 * files of versions an abandoned run wrote beyond it (snapshots at or after N, deltas after N), so
 * that a later load can't mix them with the re-run's files.
 *
 * <p>{@code memoryUsedBytes} is an estimate: the encoded size of every key and value (tracked
 * exactly as entries change) plus a per-entry overhead for the hash map node and the Java objects
 * of the two rows, derived from the schema (see {@link #entryOverhead}).
 *
 * <p>Not thread-safe: one batch at a time, from the query thread.
 */
public final class InMemoryStateStoreProvider implements StateStoreProvider {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryStateStoreProvider.class);
  static final Compression DEFAULT_COMPRESSION = Compression.SNAPPY;

  private final StateFiles files;
  private final EntrySizer sizer;
  private final int snapshotInterval;
  private final long entryOverhead;

  private long cachedVersion = -1;
  private Map<Row, Row> cached = new HashMap<>();
  private long cachedBytes;
  /** What storage held when the cache was last rebuilt; null once the first commit after it cleaned up. */
  private StateFileListing listed;
  private InMemoryStateStore active;

  InMemoryStateStoreProvider(Location folder, StateSchema schema, int snapshotInterval, Compression compression) {
    Objects.requireNonNull(folder, "location");
    Objects.requireNonNull(schema, "schema");
    if (snapshotInterval < 1) {
      throw new IllegalArgumentException("The state snapshot interval must be at least 1 version, not "
          + snapshotInterval + " (state of " + folder + ")");
    }
    StructCodec keys = new StructCodec(schema.keySchema(), "key");
    StructCodec values = new StructCodec(schema.valueSchema(), "value");
    this.files = new StateFiles(folder, keys, values, compression);
    this.sizer = new EntrySizer(keys, values);
    this.snapshotInterval = snapshotInterval;
    this.entryOverhead = entryOverhead(schema);
  }

  /**
   * @param location the partition folder, e.g. {@code <checkpoint>/state/0/0}
   * @param snapshotInterval write a snapshot when the committed version is a multiple of it (≥ 1)
   * @throws IllegalArgumentException for an interval below 1 or a schema with a type the store can't keep
   */
  public static InMemoryStateStoreProvider create(Location location, StateSchema schema, int snapshotInterval) {
    return new InMemoryStateStoreProvider(location, schema, snapshotInterval, DEFAULT_COMPRESSION);
  }

  @Override
  public StateStore load(long version) {
    if (version < 1) {
      throw new IllegalArgumentException("State versions to write start at 1 (version 0 is the empty state), not "
          + version + " (state of " + files.folder() + ")");
    }
    if (active != null) {
      active.replaced();
      active = null;
    }
    if (cachedVersion != version - 1) {
      rebuild(version - 1);
    }
    active = new InMemoryStateStore(this, version, cached);
    return active;
  }

  @Override
  public void purge(long minVersionToKeep) {
    StateFileListing listing = files.list();
    OptionalLong snapshot = listing.latestSnapshotAtOrBelow(minVersionToKeep);
    if (snapshot.isEmpty()) {
      return; // every delta from version 1 is still needed
    }
    long keepFrom = snapshot.getAsLong();
    List<String> obsolete = new ArrayList<>();
    listing.deltas().headSet(keepFrom, false).forEach(v -> obsolete.add(StateFileNames.delta(v)));
    listing.snapshots().headSet(keepFrom, false).forEach(v -> obsolete.add(StateFileNames.snapshot(v)));
    if (!obsolete.isEmpty()) {
      files.deleteAll(obsolete);
    }
  }

  @Override
  public void close() {
    if (active != null) {
      active.replaced();
      active = null;
    }
    cached = new HashMap<>();
    cachedVersion = -1;
    cachedBytes = 0;
  }

  String folder() {
    return files.folder().toString();
  }

  long memoryEstimate() {
    return cachedBytes + cached.size() * entryOverhead;
  }

  /** What {@link #commit} did. */
  record CommitOutcome(long updated, long removed, long memoryUsedBytes) {}

  /**
   * Writes {@code changes} (puts, and {@link InMemoryStateStore#REMOVED} for removes) as {@code version}'s
   * delta, then applies them to the cached map of {@code version - 1}.
   */
  CommitOutcome commit(long version, Map<Row, Row> changes) {
    if (cachedVersion != version - 1) {
      throw new IllegalStateException("Committing state version " + version + " of " + folder()
          + " but the provider holds version " + cachedVersion + "; load the version again");
    }
    deleteAbandonedFiles(version);
    StateFileFormat.Writer delta = files.newDelta();
    long updated = 0;
    long bytesChange = 0;
    for (Map.Entry<Row, Row> e : changes.entrySet()) {
      Row old = cached.get(e.getKey());
      if (old != null) {
        bytesChange -= sizer.size(e.getKey(), old);
      }
      if (e.getValue() == InMemoryStateStore.REMOVED) {
        delta.remove(e.getKey());
      } else {
        bytesChange += delta.put(e.getKey(), e.getValue());
        updated++;
      }
    }
    files.write(StateFileNames.delta(version), delta.finish());
    for (Map.Entry<Row, Row> e : changes.entrySet()) {
      if (e.getValue() == InMemoryStateStore.REMOVED) {
        cached.remove(e.getKey());
      } else {
        cached.put(e.getKey(), e.getValue());
      }
    }
    cachedVersion = version;
    cachedBytes += bytesChange;
    if (version % snapshotInterval == 0) {
      writeSnapshot(version);
    }
    return new CommitOutcome(updated, changes.size() - updated, memoryEstimate());
  }

  private void writeSnapshot(long version) {
    try {
      StateFileFormat.Writer snapshot = files.newSnapshot();
      for (Map.Entry<Row, Row> e : cached.entrySet()) {
        snapshot.put(e.getKey(), e.getValue());
      }
      files.write(StateFileNames.snapshot(version), snapshot.finish());
    } catch (RuntimeException e) {
      // The delta already made the version durable; a snapshot only shortens later rebuilds.
      LOG.warn("Writing the state snapshot {} failed; the state stays rebuildable from the delta files: {}",
          files.uri(StateFileNames.snapshot(version)), e.toString());
    }
  }

  /** Files a crashed earlier run wrote for versions this run is about to write again. */
  private void deleteAbandonedFiles(long version) {
    if (listed == null) {
      return;
    }
    List<String> abandoned = new ArrayList<>();
    listed.snapshots().tailSet(version, true).forEach(v -> abandoned.add(StateFileNames.snapshot(v)));
    listed.deltas().tailSet(version, false).forEach(v -> abandoned.add(StateFileNames.delta(v)));
    if (!abandoned.isEmpty()) {
      LOG.info("Re-running state version {} of {}: deleting files of the earlier attempt {}", version, folder(),
          abandoned);
      files.deleteAll(abandoned);
    }
    listed = null;
  }

  /** Replaces the cache with {@code stateVersion} read from storage. */
  private void rebuild(long stateVersion) {
    cached = new HashMap<>();
    cachedBytes = 0;
    cachedVersion = -1;
    StateFileListing listing = files.list();
    OptionalLong snapshot = listing.latestSnapshotAtOrBelow(stateVersion);
    long from = snapshot.orElse(0);
    for (long v = from + 1; v <= stateVersion; v++) {
      if (!listing.deltas().contains(v)) {
        String why = snapshot.isPresent()
            ? "it follows the snapshot of version " + from
            : "there is no snapshot at or below version " + stateVersion + ", so every delta from 1 is needed";
        throw StateErrors.cannotRebuild(stateVersion, folder(), files.uri(StateFileNames.delta(v)), why);
      }
    }
    Map<Row, Row> map = new HashMap<>();
    Replay replay = new Replay(map);
    if (snapshot.isPresent()) {
      files.read(StateFileNames.snapshot(from), StateFileFormat.SNAPSHOT, replay);
    }
    for (long v = from + 1; v <= stateVersion; v++) {
      files.read(StateFileNames.delta(v), StateFileFormat.DELTA, replay);
    }
    cached = map;
    cachedBytes = replay.bytes;
    cachedVersion = stateVersion;
    listed = listing;
  }

  /** Applies file records to a map, keeping the encoded size of its entries. */
  private final class Replay implements StateFileFormat.Visitor {
    private final Map<Row, Row> map;
    private long bytes;

    Replay(Map<Row, Row> map) {
      this.map = map;
    }

    @Override
    public void put(Row key, Row value, long size) {
      Row old = map.put(key, value);
      bytes += size - (old == null ? 0 : sizer.size(key, old));
    }

    @Override
    public void remove(Row key) {
      Row old = map.remove(key);
      if (old != null) {
        bytes -= sizer.size(key, old);
      }
    }
  }

  /**
   * Heap bytes per entry besides the encoded data: a HashMap node (32) and its share of the table
   * (~8), and per row a GenericRow (16), its Object[] (16 + 4 per column, 8-aligned) and ~24 per
   * column for the boxed value or the String and byte[] headers. Calibrated with
   * StateStoreBenchmark, which prints the measured heap per key next to the estimate.
   */
  static long entryOverhead(StateSchema schema) {
    return 40 + rowOverhead(schema.keySchema().size()) + rowOverhead(schema.valueSchema().size());
  }

  private static long rowOverhead(int columns) {
    long array = (16 + 4L * columns + 7) / 8 * 8;
    return 16 + array + 24L * columns;
  }
}
