package dev.sluice.ingestion.state.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.storage.ObjectStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one operator partition in a local RocksDB (as Spark's RocksDB provider with changelog
 * checkpointing), so the heap holds no entry: each commit uploads the batch's puts and removes as
 * {@code <version>.changelog} (the in-memory provider's delta encoding); every {@code snapshotInterval} versions
 * the database is flushed, checkpointed (hard links) and uploaded as SST files plus {@code <version>.zip}
 * ({@link RocksDbSnapshots}). The local copy lives under a folder of its own in the configured local directory and
 * is deleted on close; it is never trusted across runs: loading a version other than the one just committed
 * rebuilds it from the newest snapshot at or below it plus the changelogs after it, which is also how a query on
 * a fresh machine recovers. Writes go straight into the database (no write-ahead log: the changelog is the
 * durable record), so an abort or failed commit just marks the copy stale.
 *
 * <p>An operator that evicts by event time gives a {@link StateTimeIndex}: a second column family ({@link
 * TimeIndexKeys}) then holds one empty entry per state entry, keyed by (time, key), so that eviction up to a
 * watermark is a range scan of the expired entries only. It is derived data: changelogs don't record it, a
 * rebuild replays it from them, and a snapshot without it (written without the index, or by an earlier Sluice)
 * gets it by one scan of the entries.
 *
 * <p>Native memory is bounded by the query's shared {@link RocksDbMemory}; the heap holds one batch's changelog
 * (compressed) and the decoded rows a caller asks for.
 *
 * <p>Not thread-safe: one batch at a time, from the query thread.
 */
final class RocksDbStateStoreProvider implements StateStoreProvider {
  private static final Logger LOG = LoggerFactory.getLogger(RocksDbStateStoreProvider.class);

  private final StateFiles files;
  private final StructCodec keys;
  private final StructCodec values;
  private final int snapshotInterval;
  private final RocksDbMemory memory;
  private final RocksDbSnapshots snapshots;
  private final Path localRoot;
  private final Path dbDir;
  private final Statistics statistics = new Statistics();
  private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
  private final StateTimeIndex timeIndex;
  private final StateRowCodec replayCodec;
  private DBOptions dbOptions;
  private ColumnFamilyOptions cfOptions;
  private ColumnFamilyOptions timeCfOptions;
  private BloomFilter filter;
  private RocksDB db;
  private ColumnFamilyHandle defaultCf;
  private ColumnFamilyHandle timeCf;

  /** The version the local database holds; -1 when it must be rebuilt (never loaded, aborted, failed commit). */
  private long loadedVersion = -1;
  private long numKeys;
  /** Changelog records a rebuild of the loaded version would replay after the newest snapshot. */
  private long recordsSinceSnapshot;
  /** What storage held when the database was last rebuilt; null once the first commit after it cleaned up. */
  private StateFileListing listed;
  private RocksDbStateStore active;

  RocksDbStateStoreProvider(Location folder, StateSchema schema, int snapshotInterval, RocksDbMemory memory,
      Path localDir, StateTimeIndex timeIndex) {
    Objects.requireNonNull(folder, "location");
    Objects.requireNonNull(schema, "schema");
    if (snapshotInterval < 1) {
      throw new IllegalArgumentException("The state snapshot interval must be at least 1 version, not "
          + snapshotInterval + " (state of " + folder + ")");
    }
    this.keys = new StructCodec(schema.keySchema(), "key");
    this.values = new StructCodec(schema.valueSchema(), "value");
    this.files = new StateFiles(folder, keys, values, InMemoryStateStoreProvider.DEFAULT_COMPRESSION);
    this.snapshotInterval = snapshotInterval;
    this.memory = memory;
    this.snapshots = new RocksDbSnapshots(folder);
    this.localRoot = localDir.resolve("rocksdb-" + UUID.randomUUID());
    this.dbDir = localRoot.resolve("db");
    this.timeIndex = timeIndex;
    this.replayCodec = new StateRowCodec(keys, values);
  }

  @Override
  public StateStore load(long version) {
    if (version < 1) {
      throw new IllegalArgumentException("State versions to write start at 1 (version 0 is the empty state), not "
          + version + " (state of " + folder() + ")");
    }
    if (active != null) {
      active.replaced();
      active = null;
    }
    boolean hit = db != null && loadedVersion == version - 1;
    if (!hit) {
      rebuild(version - 1);
    }
    active = new RocksDbStateStore(this, version, numKeys, new StateRowCodec(keys, values), files.newDelta(), hit);
    return active;
  }

  @Override
  public void purge(long minVersionToKeep) {
    StateFileListing listing = files.list(RocksDbFileNames.CHANGELOG, RocksDbFileNames.ZIP);
    OptionalLong snapshot = listing.latestSnapshotAtOrBelow(minVersionToKeep);
    if (snapshot.isEmpty()) {
      return; // every changelog from version 1 is still needed
    }
    long keepFrom = snapshot.getAsLong();
    List<String> obsolete = new ArrayList<>();
    listing.deltas().headSet(keepFrom, false).forEach(v -> obsolete.add(RocksDbFileNames.changelog(v)));
    listing.snapshots().headSet(keepFrom, false).forEach(v -> obsolete.add(RocksDbFileNames.zip(v)));
    if (obsolete.isEmpty()) {
      return;
    }
    files.deleteAll(obsolete);
    if (!listing.snapshots().headSet(keepFrom, false).isEmpty()) {
      deleteUnlistedSsts(listing.snapshots().tailSet(keepFrom, true));
    }
  }

  /** SST files no remaining snapshot lists: those of purged snapshots, and of uploads torn by a crash. */
  private void deleteUnlistedSsts(Set<Long> remaining) {
    Set<String> listedObjects = new HashSet<>();
    for (long v : remaining) {
      snapshots.manifest(v).sstFiles().forEach(f -> listedObjects.add(f.object()));
    }
    String prefix = files.folder().resolve(RocksDbFileNames.SST_FOLDER).key() + "/";
    String base = files.folder().key().isEmpty() ? "" : files.folder().key() + "/";
    List<String> unlisted = new ArrayList<>();
    try (CloseableIterator<ObjectStatus> it = files.folder().store().list(prefix)) {
      while (it.hasNext()) {
        String name = it.next().key().substring(base.length());
        if (!listedObjects.contains(name)) {
          unlisted.add(name);
        }
      }
    }
    if (!unlisted.isEmpty()) {
      files.deleteAll(unlisted);
      snapshots.forgetObjects(new HashSet<>(unlisted));
    }
  }

  @Override
  public void close() {
    if (active != null) {
      active.replaced();
      active = null;
    }
    closeDb();
    statistics.close();
    writeOptions.close();
    deleteLocal(localRoot);
  }

  String folder() {
    return files.folder().toString();
  }

  RocksDB db() {
    return db;
  }

  WriteOptions writeOptions() {
    return writeOptions;
  }

  /** The index the operator gave, or null. */
  StateTimeIndex timeIndex() {
    return timeIndex;
  }

  /** The column family of the time index (empty when there is no index). */
  ColumnFamilyHandle timeColumnFamily() {
    return timeCf;
  }

  /**
   * Whether the database has {@code key}. One {@code get}: {@code keyMayExist} first was slower, as it can't
   * consult filter blocks that are not cached and then answers "maybe", which costs a second lookup.
   */
  boolean exists(byte[] key) {
    try {
      return db.get(key) != null;
    } catch (RocksDBException e) {
      throw failure("reading", e);
    }
  }

  IllegalStateException failure(String doing, RocksDBException e) {
    return new IllegalStateException("RocksDB failed " + doing + " the state of " + folder() + " (local copy "
        + dbDir + "): " + e.getMessage() + ". Check free disk space and memory; the batch is retried from the "
        + "checkpoint on restart", e);
  }

  /** The statistics' cumulative tickers the progress reports per batch, by Spark's metric names. */
  Map<String, Long> tickers() {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put("rocksdbTotalBytesRead", statistics.getTickerCount(TickerType.BYTES_READ));
    out.put("rocksdbTotalBytesWritten", statistics.getTickerCount(TickerType.BYTES_WRITTEN));
    out.put("rocksdbReadBlockCacheHitCount", statistics.getTickerCount(TickerType.BLOCK_CACHE_HIT));
    out.put("rocksdbReadBlockCacheMissCount", statistics.getTickerCount(TickerType.BLOCK_CACHE_MISS));
    out.put("rocksdbTotalBytesReadByCompaction", statistics.getTickerCount(TickerType.COMPACT_READ_BYTES));
    out.put("rocksdbTotalBytesWrittenByCompaction", statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES));
    out.put("rocksdbWriterStallLatencyMs", statistics.getTickerCount(TickerType.STALL_MICROS) / 1000);
    return out;
  }

  /** Gauges of the database now: SST bytes on local disk, and native memory (the cache is the query's, shared). */
  Map<String, Long> gauges() {
    Map<String, Long> out = new LinkedHashMap<>();
    long readers = property("rocksdb.estimate-table-readers-mem");
    // The write buffer manager charges the memtables to the cache, so its usage already includes them.
    out.put("rocksdbMemUsage", memory.usage() + readers);
    out.put("rocksdbPinnedBlocksMemoryUsage", memory.pinnedUsage());
    out.put("rocksdbSstFileSize", property("rocksdb.total-sst-files-size"));
    out.put("rocksdbNumExternalColumnFamilies", 1L);
    out.put("rocksdbNumInternalColFamiliesKeys", timeIndex == null ? 0L : numKeys);
    return out;
  }

  private long property(String name) {
    try {
      return db.getAggregatedLongProperty(name);
    } catch (RocksDBException e) {
      return 0; // a missing property is no reason to fail a batch
    }
  }

  /** What {@link #commit} did, for metrics. */
  record CommitOutcome(Map<String, Long> metrics) {}

  /**
   * Uploads {@code changelog} as {@code version}'s, and every {@code snapshotInterval} versions a snapshot; the
   * database already holds the batch's writes.
   */
  CommitOutcome commit(long version, StateFileContent changelog, long keysNow) {
    if (loadedVersion != version - 1) {
      throw new IllegalStateException("Committing state version " + version + " of " + folder()
          + " but the provider holds version " + loadedVersion + "; load the version again");
    }
    loadedVersion = -1; // until the changelog is durable, the local database is ahead of storage
    deleteAbandonedFiles(version);
    long start = System.nanoTime();
    long changelogBytes = changelog.size();
    recordsSinceSnapshot += changelog.records();
    files.write(RocksDbFileNames.changelog(version), changelog);
    long changelogMs = (System.nanoTime() - start) / 1_000_000;
    loadedVersion = version;
    numKeys = keysNow;
    Map<String, Long> metrics = new LinkedHashMap<>();
    metrics.put("rocksdbCommitWriteBatchLatency", 0L); // writes go to the database as they happen, not at commit
    metrics.put("rocksdbCommitCompactLatency", 0L); // no compaction on commit; RocksDB compacts in the background
    metrics.put("rocksdbCommitPauseLatency", 0L);
    metrics.put("rocksdbCommitFlushLatency", 0L);
    metrics.put("rocksdbCommitCheckpointLatency", 0L);
    metrics.put("rocksdbCommitFileSyncLatencyMs", changelogMs);
    metrics.put("rocksdbFilesCopied", 0L);
    metrics.put("rocksdbFilesReused", 0L);
    metrics.put("rocksdbBytesCopied", 0L);
    metrics.put("rocksdbChangelogBytes", changelogBytes);
    if (SnapshotPolicy.snapshotDue(version, snapshotInterval, recordsSinceSnapshot, numKeys)) {
      metrics.putAll(writeSnapshot(version, changelogMs, SnapshotPolicy.evictionDriven(recordsSinceSnapshot, numKeys)));
    }
    return new CommitOutcome(metrics);
  }

  /**
   * {@code compact}: the changes since the last snapshot outnumber the keys, so most of what the SST files hold is
   * deleted entries (a watermark evicted what the batches put); compacting first drops them, or every later restart
   * would download them (after a 10 M-key batch was evicted: ~200 MB of SSTs for 134 k live keys).
   */
  private Map<String, Long> writeSnapshot(long version, long changelogMs, boolean compact) {
    Map<String, Long> out = new LinkedHashMap<>();
    Path checkpoint = localRoot.resolve("checkpoint-" + version);
    try {
      long t0 = System.nanoTime();
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        db.flush(flush, List.of(defaultCf, timeCf));
      }
      if (compact) {
        db.compactRange(defaultCf);
        db.compactRange(timeCf);
      }
      long t1 = System.nanoTime();
      deleteLocal(checkpoint);
      try (Checkpoint c = Checkpoint.create(db)) {
        c.createCheckpoint(checkpoint.toString());
      }
      long t2 = System.nanoTime();
      RocksDbSnapshots.Upload upload = snapshots.upload(checkpoint, version, numKeys);
      recordsSinceSnapshot = 0;
      long t3 = System.nanoTime();
      out.put("rocksdbCommitFlushLatency", (t1 - t0) / 1_000_000);
      out.put("rocksdbCommitCheckpointLatency", (t2 - t1) / 1_000_000);
      out.put("rocksdbCommitFileSyncLatencyMs", changelogMs + (t3 - t2) / 1_000_000);
      out.put("rocksdbFilesCopied", (long) upload.filesCopied());
      out.put("rocksdbFilesReused", (long) upload.filesReused());
      out.put("rocksdbBytesCopied", upload.bytesCopied());
      out.put("rocksdbZipFileBytes", upload.zipBytes());
    } catch (RocksDBException | IOException | RuntimeException e) {
      // The changelog already made the version durable; a snapshot only shortens later rebuilds.
      LOG.warn("Writing the RocksDB state snapshot {} failed; the state stays rebuildable from the changelogs: {}",
          files.uri(RocksDbFileNames.zip(version)), e.toString());
    } finally {
      deleteLocal(checkpoint);
    }
    return out;
  }

  /** Files a crashed earlier run wrote for versions this run is about to write again. */
  private void deleteAbandonedFiles(long version) {
    if (listed == null) {
      return;
    }
    List<String> abandoned = new ArrayList<>();
    listed.snapshots().tailSet(version, true).forEach(v -> abandoned.add(RocksDbFileNames.zip(v)));
    listed.deltas().tailSet(version, false).forEach(v -> abandoned.add(RocksDbFileNames.changelog(v)));
    if (!abandoned.isEmpty()) {
      LOG.info("Re-running state version {} of {}: deleting files of the earlier attempt {}", version, folder(),
          abandoned);
      files.deleteAll(abandoned);
    }
    listed = null;
  }

  /** Marks the local database stale: the next load rebuilds it from storage. */
  void invalidate() {
    loadedVersion = -1;
  }

  /** Replaces the local database with {@code stateVersion} rebuilt from storage. */
  private void rebuild(long stateVersion) {
    closeDb();
    loadedVersion = -1;
    StateFileListing listing = files.list(RocksDbFileNames.CHANGELOG, RocksDbFileNames.ZIP);
    OptionalLong snapshot = listing.latestSnapshotAtOrBelow(stateVersion);
    long from = snapshot.orElse(0);
    for (long v = from + 1; v <= stateVersion; v++) {
      if (!listing.deltas().contains(v)) {
        String why = snapshot.isPresent()
            ? "it follows the snapshot of version " + from
            : "there is no snapshot at or below version " + stateVersion + ", so every changelog from 1 is needed";
        throw StateErrors.cannotRebuild(stateVersion, folder(), files.uri(RocksDbFileNames.changelog(v)), why);
      }
    }
    deleteLocal(dbDir);
    try {
      Files.createDirectories(dbDir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the local RocksDB folder " + dbDir + " (option "
          + "stateStore.localDir): " + e.getMessage(), e);
    }
    snapshots.forget();
    long keysNow = 0;
    if (snapshot.isPresent()) {
      keysNow = snapshots.download(from, dbDir).numKeys();
    }
    openDb();
    reconcileTimeIndex();
    Replay replay = new Replay(keysNow);
    for (long v = from + 1; v <= stateVersion; v++) {
      files.read(RocksDbFileNames.changelog(v), StateFileFormat.DELTA, replay);
    }
    numKeys = replay.keys;
    recordsSinceSnapshot = replay.records;
    loadedVersion = stateVersion;
    listed = listing;
  }

  private void openDb() {
    filter = new BloomFilter(10, false);
    cfOptions = columnFamilyOptions(true, Math.max(1L << 20, memory.bytes() / 4));
    // The index's keys are looked up by range only: no filter; smaller entries, smaller buffers.
    timeCfOptions = columnFamilyOptions(false, Math.max(1L << 20, memory.bytes() / 8));
    dbOptions = new DBOptions()
        .setCreateIfMissing(true)
        .setCreateMissingColumnFamilies(true)
        .setWriteBufferManager(memory.writeBuffers())
        .setMaxBackgroundJobs(2)
        .setStatistics(statistics)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setKeepLogFileNum(2)
        .setAvoidFlushDuringShutdown(true);
    List<ColumnFamilyDescriptor> families = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
        new ColumnFamilyDescriptor(TimeIndexKeys.COLUMN_FAMILY, timeCfOptions));
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      db = RocksDB.open(dbOptions, dbDir.toString(), families, handles);
      defaultCf = handles.get(0);
      timeCf = handles.get(1);
    } catch (RocksDBException e) {
      closeDb();
      throw failure("opening", e);
    }
  }

  private ColumnFamilyOptions columnFamilyOptions(boolean withFilter, long writeBufferBytes) {
    // Partitioned index and filters (as Flink's bounded memory): a lookup loads the 4 KB partitions it needs, not
    // a whole file's filter, which at millions of keys no longer fits the cache's share and was reloaded per get.
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(memory.cache())
        .setCacheIndexAndFilterBlocks(true)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinL0FilterAndIndexBlocksInCache(true)
        .setIndexType(IndexType.kTwoLevelIndexSearch)
        .setPartitionFilters(true)
        .setMetadataBlockSize(4096)
        .setPinTopLevelIndexAndFilter(true)
        .setBlockSize(16 * 1024)
        .setFormatVersion(5);
    if (withFilter) {
      table.setFilterPolicy(filter);
    }
    return new ColumnFamilyOptions()
        .setTableFormatConfig(table)
        .setWriteBufferSize(writeBufferBytes)
        .setMaxWriteBufferNumber(3)
        .setCompressionType(CompressionType.LZ4_COMPRESSION);
  }

  /**
   * Makes the time index match the entries of the database just opened: builds it anew when the operator has one
   * and the snapshot's is missing or stale (written by a run without the index); drops it when the operator has
   * none (this run won't keep it up to date).
   */
  private void reconcileTimeIndex() {
    try {
      boolean complete = db.get(timeCf, TimeIndexKeys.COMPLETE) != null;
      if (timeIndex == null) {
        if (complete) {
          clearTimeIndex();
        }
        return;
      }
      if (complete) {
        return;
      }
      clearTimeIndex();
      long count = 0;
      try (RocksIterator it = db.newIterator(defaultCf)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] k = it.key();
          db.put(timeCf, writeOptions, TimeIndexKeys.of(time(k, it.value()), k), TimeIndexKeys.EMPTY);
          count++;
        }
      }
      db.put(timeCf, writeOptions, TimeIndexKeys.COMPLETE, TimeIndexKeys.EMPTY);
      LOG.info("Built the event-time index of {} state entries of {}", count, folder());
    } catch (RocksDBException e) {
      throw failure("indexing", e);
    }
  }

  private void clearTimeIndex() throws RocksDBException {
    db.dropColumnFamily(timeCf);
    timeCf.close();
    timeCf = db.createColumnFamily(new ColumnFamilyDescriptor(TimeIndexKeys.COLUMN_FAMILY, timeCfOptions));
  }

  private void closeDb() {
    for (ColumnFamilyHandle h : new ColumnFamilyHandle[] {timeCf, defaultCf}) {
      if (h != null) {
        h.close();
      }
    }
    timeCf = null;
    defaultCf = null;
    if (db != null) {
      db.close();
      db = null;
    }
    for (AutoCloseable c : new AutoCloseable[] {dbOptions, cfOptions, timeCfOptions, filter}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
    dbOptions = null;
    cfOptions = null;
    timeCfOptions = null;
    filter = null;
  }

  private static void deleteLocal(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("Could not delete the local RocksDB files {}: {}", path, e.toString());
    }
  }

  /** Applies changelog records to the database and its time index, keeping the key count. */
  private final class Replay implements StateFileFormat.Visitor {
    private long keys;
    private long records;

    Replay(long keys) {
      this.keys = keys;
    }

    @Override
    public void put(byte[] key, byte[] value) {
      records++;
      try {
        byte[] old = db.get(key);
        if (old == null) {
          keys++;
        }
        db.put(writeOptions, key, value);
        if (timeIndex != null) {
          reindex(key, old, value);
        }
      } catch (RocksDBException e) {
        throw failure("rebuilding", e);
      }
    }

    @Override
    public void remove(byte[] key) {
      records++;
      try {
        byte[] old = db.get(key);
        if (old != null) {
          keys--;
          db.delete(writeOptions, key);
          if (timeIndex != null) {
            db.delete(timeCf, writeOptions, TimeIndexKeys.of(time(key, old), key));
          }
        }
      } catch (RocksDBException e) {
        throw failure("rebuilding", e);
      }
    }
  }

  /**
   * Writes entries of keys the database doesn't hold, with their index entries, in one write batch: a point write per
   * key and one per index entry were two JNI calls per new key of a dedup (and two deletes per evicted one,
   * {@link #deleteAll}), most of a RocksDB-backed silver's native time.
   */
  void putAbsent(List<byte[]> keys, List<byte[]> values) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        byte[] key = keys.get(i);
        byte[] value = values.get(i);
        batch.put(key, value);
        if (timeIndex != null) {
          batch.put(timeCf, TimeIndexKeys.of(time(key, value), key), TimeIndexKeys.EMPTY);
        }
      }
      db.write(writeOptions, batch);
    }
  }

  /** Deletes the entries of {@code keys} (whose values are {@code values}) and their index entries in one write batch. */
  void deleteAll(List<byte[]> keys, List<byte[]> values) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        byte[] key = keys.get(i);
        batch.delete(key);
        if (timeIndex != null) {
          batch.delete(timeCf, TimeIndexKeys.of(time(key, values.get(i)), key));
        }
      }
      db.write(writeOptions, batch);
    }
  }

  /** Moves {@code key}'s index entry from where {@code old} (null: none) put it to where {@code value} puts it. */
  void reindex(byte[] key, byte[] old, byte[] value) throws RocksDBException {
    if (old != null && timeIndex.inKey()) {
      return; // the key alone decides: the entry is where it was
    }
    long time = time(key, value);
    if (old != null) {
      long before = time(key, old);
      if (before == time) {
        return;
      }
      db.delete(timeCf, writeOptions, TimeIndexKeys.of(before, key));
    }
    db.put(timeCf, writeOptions, TimeIndexKeys.of(time, key), TimeIndexKeys.EMPTY);
  }

  /** The index time of an encoded entry, decoding only the half the index reads. */
  long time(byte[] key, byte[] value) {
    Row half = timeIndex.inKey() ? replayCodec.decodeKey(key) : replayCodec.decodeValue(value);
    return timeIndex.time().applyAsLong(half);
  }

  /** An iterator over the database as of now, which the caller closes. */
  RocksIterator newIterator() {
    RocksIterator it = db.newIterator();
    it.seekToFirst();
    return it;
  }
}
