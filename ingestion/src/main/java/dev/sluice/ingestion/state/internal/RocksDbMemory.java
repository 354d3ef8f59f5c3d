package dev.sluice.ingestion.state.internal;

import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The native memory one query's RocksDB stores share (Spark's {@code boundedMemoryUsage}): one LRU block cache
 * of {@code bytes}, to which a write buffer manager charges the memtables (up to half of it) and which also holds
 * the index and filter blocks, so the stores' memory stays near {@code bytes} whatever the number of keys.
 * Closed after every store of the query is closed.
 */
final class RocksDbMemory implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final long bytes;
  private final LRUCache cache;
  private final WriteBufferManager writeBuffers;

  RocksDbMemory(long bytes) {
    this.bytes = bytes;
    // 10 % of the cache is kept for index and filter blocks (high priority), as Spark's highPriorityPoolRatio.
    this.cache = new LRUCache(bytes, -1 /* shard bits: automatic */, false /* strict limit */, 0.1);
    this.writeBuffers = new WriteBufferManager(bytes / 2, cache);
  }

  long bytes() {
    return bytes;
  }

  Cache cache() {
    return cache;
  }

  WriteBufferManager writeBuffers() {
    return writeBuffers;
  }

  /** Bytes the cache holds now (data, index and filter blocks, and the memtables charged to it). */
  long usage() {
    return cache.getUsage();
  }

  long pinnedUsage() {
    return cache.getPinnedUsage();
  }

  @Override
  public void close() {
    writeBuffers.close();
    cache.close();
  }
}
