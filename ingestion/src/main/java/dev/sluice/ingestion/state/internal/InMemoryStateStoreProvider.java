package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
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
 * after committing N-1 copies nothing, and the store of version N changes that map in place, keeping a log to
 * write as the delta or to undo. Any other load rebuilds version N-1 from the newest snapshot
 * at or below it plus the deltas after it. The first commit after such a rebuild first deletes the
 * files of versions an abandoned run wrote beyond it (snapshots at or after N, deltas after N), so
 * that a later load can't mix them with the re-run's files.
 *
 * <p>The map holds every key and value encoded as in the state files ({@link BytesMap}), so a commit
 * copies the changed entries' bytes into the delta and a snapshot copies the map's bytes, without
 * encoding rows again, and an entry costs its bytes plus ~60 bytes rather than a graph of boxed rows.
 * {@code memoryUsedBytes} is the encoded size of every key and value (tracked exactly as entries
 * change), plus two array headers per entry and the map's slot arrays.
 *
 * <p>Not thread-safe: one batch at a time, from the query thread.
 */
public final class InMemoryStateStoreProvider implements StateStoreProvider {
  private static final Logger LOG = LoggerFactory.getLogger(InMemoryStateStoreProvider.class);
  static final Compression DEFAULT_COMPRESSION = Compression.SNAPPY;

  private final StateFiles files;
  private final StructCodec keys;
  private final StructCodec values;
  private final int snapshotInterval;

  private long cachedVersion = -1;
  private BytesMap cached;
  private long cachedBytes;
  /** What storage held when the cache was last rebuilt; null once the first commit after it cleaned up. */
  private StateFileListing listed;
  private InMemoryStateStore active;
  /** Delta records a rebuild of the cached version would replay after the newest snapshot. */
  private long recordsSinceSnapshot;
  private long cacheHits;
  private long cacheMisses;
  /** A read of state version {@link #preparedVersion} started by {@link #prepare}; null when none is pending. */
  private java.util.concurrent.CompletableFuture<Rebuilt> prepared;
  private long preparedVersion = -1;

  InMemoryStateStoreProvider(Location folder, StateSchema schema, int snapshotInterval, Compression compression) {
    Objects.requireNonNull(folder, "location");
    Objects.requireNonNull(schema, "schema");
    if (snapshotInterval < 1) {
      throw new IllegalArgumentException("The state snapshot interval must be at least 1 version, not "
          + snapshotInterval + " (state of " + folder + ")");
    }
    this.keys = new StructCodec(schema.keySchema(), "key");
    this.values = new StructCodec(schema.valueSchema(), "value");
    this.files = new StateFiles(folder, keys, values, compression);
    this.snapshotInterval = snapshotInterval;
    this.cached = newMap();
  }

  /** An empty map; one that keeps values as longs when the value is one LONG column (a deduplication's expiry). */
  private BytesMap newMap() {
    return newMap(values);
  }

  private static BytesMap newMap(StructCodec values) {
    StructType valueType = values.type();
    return valueType.size() == 1 && valueType.field(0).type() == PrimitiveType.LONG ? BytesMap.withLongValues()
        : new BytesMap();
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
      cacheMisses++;
      cached = newMap();
      cachedBytes = 0;
      cachedVersion = -1;
      install(takePrepared(version - 1));
    } else {
      cacheHits++;
    }
    active = new InMemoryStateStore(this, version, cached, new StateRowCodec(keys, values));
    return active;
  }

  /** Reads the state of {@code version - 1} on a daemon thread when the cache doesn't hold it. */
  @Override
  public void prepare(long version) {
    // version 1 starts from the empty state: nothing to read ahead
    if (version < 2 || cachedVersion == version - 1 || (prepared != null && preparedVersion == version - 1)) {
      return;
    }
    long stateVersion = version - 1;
    java.util.concurrent.CompletableFuture<Rebuilt> read = new java.util.concurrent.CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        read.complete(read(stateVersion));
      } catch (RuntimeException | Error e) {
        read.completeExceptionally(e);
      }
    }, "sluice-state-read");
    t.setDaemon(true);
    t.start();
    prepared = read;
    preparedVersion = stateVersion;
  }

  /** The state of {@code stateVersion}: the prepared read when it is of that version, else read now. */
  private Rebuilt takePrepared(long stateVersion) {
    java.util.concurrent.CompletableFuture<Rebuilt> pending = prepared;
    boolean matches = pending != null && preparedVersion == stateVersion;
    prepared = null;
    preparedVersion = -1;
    if (!matches) {
      return read(stateVersion);
    }
    try {
      return pending.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw e;
    }
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
    cached = newMap();
    cachedVersion = -1;
    cachedBytes = 0;
    prepared = null;
    preparedVersion = -1;
  }

  String folder() {
    return files.folder().toString();
  }

  long memoryEstimate() {
    // Values held as longs have no array: one header and padding per entry fewer, their bytes in the slots instead.
    long perEntry = cached.hasLongValues() ? ENTRY_OVERHEAD / 2 : ENTRY_OVERHEAD;
    return cachedBytes + cached.size() * perEntry + cached.slotBytes();
  }

  /**
   * Spark's custom metrics of its HDFS-backed provider: loads served by the cached map (the version just
   * committed) and loads that rebuilt it from files, since the provider opened; the encoded bytes of the state.
   */
  java.util.Map<String, Long> customMetrics() {
    return java.util.Map.of("loadedMapCacheHitCount", cacheHits, "loadedMapCacheMissCount", cacheMisses,
        "stateOnCurrentVersionSizeBytes", cachedBytes);
  }

  /** What {@link #commit} did. */
  record CommitOutcome(long updated, long removed, long memoryUsedBytes) {}

  /**
   * Writes the log of the store that changed the cached map of {@code version - 1} in place as {@code version}'s
   * delta (in log order, so that a key removed and put again ends as put), then takes the map as {@code version}.
   * A failed write changes nothing here: the store undoes its log.
   */
  CommitOutcome commit(long version, StateChangeLog log) {
    if (cachedVersion != version - 1) {
      throw new IllegalStateException("Committing state version " + version + " of " + folder()
          + " but the provider holds version " + cachedVersion + "; load the version again");
    }
    deleteAbandonedFiles(version);
    StateFileFormat.Writer delta = files.newDelta();
    long records = 0;
    long bytesChange = 0;
    List<StateChangeLog.Range> ranges = log.ranges();
    int range = 0;
    for (int i = 0; i < log.size(); i++) {
      if (range < ranges.size() && i >= ranges.get(range).from()) {
        StateChangeLog.Range r = ranges.get(range);
        if (i == r.from()) {
          delta.removeUpTo(r.column(), r.upToMicros());
          records++;
        }
        bytesChange += log.bytesChange(i);
        if (i == r.to() - 1) {
          range++;
        }
        continue;
      }
      if (log.isNoOp(i)) {
        continue;
      }
      bytesChange += log.bytesChange(i);
      if (log.afterIsLong(i)) {
        delta.putEncodedLong(log.key(i), log.afterLong(i));
      } else if (log.after(i) == StateChangeLog.REMOVED) {
        delta.removeEncoded(log.key(i));
      } else {
        delta.putEncoded(log.key(i), log.after(i));
      }
      records++;
    }
    files.write(StateFileNames.delta(version), delta.finish());
    log.clearTags(cached);
    cachedVersion = version;
    cachedBytes += bytesChange;
    recordsSinceSnapshot += records;
    if (SnapshotPolicy.snapshotDue(version, snapshotInterval, recordsSinceSnapshot, cached.size())) {
      writeSnapshot(version);
    }
    return new CommitOutcome(log.updated(), log.removed(), memoryEstimate());
  }

  private void writeSnapshot(long version) {
    try {
      StateFileFormat.Writer snapshot = files.newSnapshot();
      for (int slot = 0; slot < cached.capacity(); slot++) {
        byte[] key = cached.keyAt(slot);
        if (key == null) {
          continue;
        }
        if (cached.hasLongValues()) {
          snapshot.putEncodedLong(key, cached.longAt(slot));
        } else {
          snapshot.putEncoded(key, cached.valueAt(slot));
        }
      }
      files.write(StateFileNames.snapshot(version), snapshot.finish());
      recordsSinceSnapshot = 0;
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

  /** A state version read from storage, not yet the cache. */
  record Rebuilt(long version, BytesMap map, long bytes, long deltaRecords, StateFileListing listing) {}

  /** Replaces the cache with a version read from storage. */
  private void install(Rebuilt r) {
    cached = r.map();
    cachedBytes = r.bytes();
    recordsSinceSnapshot = r.deltaRecords();
    cachedVersion = r.version();
    listed = r.listing();
  }

  /** Reads {@code stateVersion} from storage; touches no field but the immutable ones (it may run on another thread). */
  private Rebuilt read(long stateVersion) {
    return rebuild(files, keys, values, stateVersion);
  }

  /** Reads {@code stateVersion} of the state in {@code files}: its newest snapshot at or below, then the deltas after. */
  static Rebuilt rebuild(StateFiles files, StructCodec keys, StructCodec values, long stateVersion) {
    StateFileListing listing = files.list();
    OptionalLong snapshot = listing.latestSnapshotAtOrBelow(stateVersion);
    long from = snapshot.orElse(0);
    for (long v = from + 1; v <= stateVersion; v++) {
      if (!listing.deltas().contains(v)) {
        String why = snapshot.isPresent()
            ? "it follows the snapshot of version " + from
            : "there is no snapshot at or below version " + stateVersion + ", so every delta from 1 is needed";
        throw StateErrors.cannotRebuild(stateVersion, files.folder().toString(), files.uri(StateFileNames.delta(v)),
            why);
      }
    }
    BytesMap map = newMap(values);
    Replay replay = new Replay(map, new StateRowCodec(keys, values));
    if (snapshot.isPresent()) {
      files.read(StateFileNames.snapshot(from), StateFileFormat.SNAPSHOT, replay);
    }
    replay.deltaRecords = 0;
    for (long v = from + 1; v <= stateVersion; v++) {
      files.read(StateFileNames.delta(v), StateFileFormat.DELTA, replay);
    }
    return new Rebuilt(stateVersion, map, replay.bytes, replay.deltaRecords, listing);
  }

  /** Applies file records to a map, keeping the encoded size of its entries. */
  private static final class Replay implements StateFileFormat.Visitor {
    private final BytesMap map;
    private final StateRowCodec codec;
    private long bytes;
    private long deltaRecords;

    Replay(BytesMap map, StateRowCodec codec) {
      this.map = map;
      this.codec = codec;
    }

    @Override
    public void removeUpTo(int column, long upToMicros) {
      deltaRecords++;
      removeUpToIn(map, codec, column, upToMicros, slot -> bytes -= entryBytes(map, slot));
    }

    @Override
    public void put(byte[] key, byte[] value) {
      deltaRecords++;
      byte[] old = map.put(key, value);
      bytes += key.length + value.length - (old == null ? 0 : key.length + old.length);
    }

    @Override
    public void remove(byte[] key) {
      deltaRecords++;
      byte[] old = map.remove(key);
      if (old != null) {
        bytes -= key.length + old.length;
      }
    }
  }

  /**
   * Applies a delta's range record to {@code map}: removes every entry whose time (the value's LONG {@code column}) is
   * at most {@code upToMicros}, calling {@code removing} with each slot just before it goes.
   */
  static void removeUpToIn(BytesMap map, StateRowCodec codec, int column, long upToMicros,
      java.util.function.IntConsumer removing) {
    if (map.size() > 0 && !map.hasLongValues() && !codec.readsFirstValueLong(column)) {
      throw new IllegalStateException("A state delta removes entries up to a time in value column " + column
          + ", but the state's values don't hold that time as their first column of type LONG");
    }
    map.removeIf(slot -> InMemoryStateStore.timeAt(map, codec, slot) <= upToMicros, removing);
  }

  /** The encoded bytes of the entry in the occupied {@code slot}: its key and value. */
  static long entryBytes(BytesMap map, int slot) {
    return map.keyAt(slot).length
        + (map.hasLongValues() ? LongValues.encodedLength(map.longAt(slot)) : map.valueAt(slot).length);
  }

  /**
   * Heap bytes per entry besides the encoded data and the slots: the headers of its two byte arrays
   * (16 each) and their padding to 8 bytes (~4 each on average), plus the share of the table a
   * resize leaves free. Calibrated with StateStoreBenchmark (1 M string keys: 90 bytes measured per
   * key, 88 estimated; the boxed-row map took 181).
   */
  static final long ENTRY_OVERHEAD = 48;
}
