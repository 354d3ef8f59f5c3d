package dev.sluice.gold.internal;

import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateStoreProvider;
import dev.sluice.ingestion.state.StateStores;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.storage.ObjectStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group totals of update mode (every measure invertible), in the engine's versioned state store
 * under {@code <checkpoint>/state/gold/<base>}: version {@code v} there is the state after batch
 * {@code base + v - 1}, so batch N loads version {@code N - base + 1} (holding the state after batch
 * N-1) and commits it before the gold commit; a re-run batch rebuilds the same version from the same
 * input. A batch that recomputes every group from silver's snapshot (a dimension changed, no state —
 * a checkpoint from before the state, or state that can't be rebuilt) starts a new base at its own
 * batch id: its version 1 is the recomputed totals, and older bases are deleted once it is committed.
 * Base 0 may start empty only for a feed read from the beginning (its first batch is silver's whole
 * snapshot as inserts).
 *
 * <p>Used by the first step of a batch ({@link #begin}) and the sink, in the query's thread, one
 * batch at a time.
 */
final class GroupState implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupState.class);
  private static final int SNAPSHOT_INTERVAL = 10;

  private final Location root;
  private final boolean fromStart;
  private final int minBatchesToRetain;
  private StateSchema schema;
  private long base = -1;
  private StateStoreProvider provider;
  private long committedBatch = -1;
  private StateStore open;
  private long openBatch = -1;
  private boolean seeding;

  /**
   * @param root {@code <checkpoint>/state/gold}
   * @param fromStart whether the change feed's first batch is silver's whole snapshot as inserts
   */
  GroupState(Location root, boolean fromStart, int minBatchesToRetain) {
    this.root = root;
    this.fromStart = fromStart;
    this.minBatchesToRetain = minBatchesToRetain;
  }

  /** Sets the store's shape when the query binds the aggregate (before the first batch). */
  void bind(StateSchema schema) {
    this.schema = schema;
  }

  /**
   * Opens the state for batch {@code batchId}: true when the batch can follow the change feed (the
   * state after the previous batch is loaded), false when it must recompute every group from the
   * snapshot and seed a new base ({@code recompute} forces that).
   */
  boolean begin(long batchId, boolean recompute) {
    if (!recompute) {
      long b = committedBatch == batchId - 1 && base >= 0 ? base : latestBase(batchId);
      if (b < 0 && batchId == 0) {
        b = 0;
      }
      if (b >= 0 && (b < batchId || fromStart && batchId == 0)) {
        try {
          open(b, batchId - b + 1, batchId, false);
          return true;
        } catch (IllegalStateException e) {
          LOG.warn("Gold state {} can't be rebuilt for batch {}; recomputing every group to start it again: {}",
              root.resolve(Long.toString(b)), batchId, e.getMessage());
        }
      }
    }
    open(batchId, 1, batchId, true);
    return false;
  }

  private void open(long newBase, long version, long batchId, boolean seed) {
    if (newBase != base) {
      closeProvider();
      provider = StateStores.inMemory(root.resolve(Long.toString(newBase)), schema, SNAPSHOT_INTERVAL);
      base = newBase;
    }
    open = provider.load(version);
    openBatch = batchId;
    seeding = seed;
  }

  /** The store opened for {@code batchId} by {@link #begin}. */
  StateStore store(long batchId) {
    if (open == null || openBatch != batchId) {
      throw new IllegalStateException("The gold state of batch " + batchId + " is not open (the first step last ran"
          + " for batch " + openBatch + "); the steps of a batch must run in order");
    }
    return open;
  }

  /** Makes the batch's state durable; call before the gold commit. */
  void commit(long batchId) {
    store(batchId).commit();
    open = null;
    committedBatch = batchId;
  }

  /** After the gold commit: deletes state no longer needed (older versions, and older bases after a seed). */
  void cleanUp(long batchId) {
    long version = batchId - base + 1;
    if (version >= minBatchesToRetain) {
      provider.purge(version + 1 - minBatchesToRetain);
    }
    if (seeding) {
      List<String> old = new ArrayList<>();
      for (long b : bases()) {
        if (b < base) {
          old.addAll(keysUnder(Long.toString(b)));
        }
      }
      if (!old.isEmpty()) {
        root.store().deleteAll(old);
      }
      seeding = false;
    }
  }

  /** The greatest base at or below {@code batchId}, or -1. */
  private long latestBase(long batchId) {
    Long b = bases().floor(batchId);
    return b == null ? -1 : b;
  }

  private TreeSet<Long> bases() {
    TreeSet<Long> out = new TreeSet<>();
    String prefix = folderKey(root.key());
    try (CloseableIterator<ObjectStatus> it = root.store().list(prefix)) {
      while (it.hasNext()) {
        String rest = it.next().key().substring(prefix.length());
        int slash = rest.indexOf('/');
        if (slash > 0 && rest.substring(0, slash).matches("\\d{1,18}")) {
          out.add(Long.parseLong(rest.substring(0, slash)));
        }
      }
    }
    return out;
  }

  private List<String> keysUnder(String child) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<ObjectStatus> it = root.store().list(folderKey(root.resolve(child).key()))) {
      it.forEachRemaining(s -> out.add(s.key()));
    }
    return out;
  }

  private static String folderKey(String key) {
    return key.isEmpty() || key.endsWith("/") ? key : key + "/";
  }

  private void closeProvider() {
    if (provider != null) {
      provider.close();
      provider = null;
    }
  }

  @Override
  public void close() {
    closeProvider();
    base = -1;
  }
}
