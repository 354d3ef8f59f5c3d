package dev.sluice.ingestion.internal.plan.dedup;

import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateTimeIndex;

/**
 * The smallest watermark (epoch microseconds) that would evict a key of a store as the last batch left it, so
 * that a step can tell without its store whether a batch without data is worth running, and skip the eviction
 * when no key is due. Known for the version this step committed last only: a re-run batch or a restart (an
 * earlier run filled the store) asks the store again.
 */
final class EvictionHorizon {
  private long version = -1;
  private long min = Long.MAX_VALUE;

  /**
   * Whether a watermark of {@code currentMs} would evict a key. Without knowledge of the store, any move of
   * the watermark may.
   */
  boolean wouldEvict(long previousMs, long currentMs) {
    return version >= 0 ? min <= currentMs * 1000 : currentMs > previousMs;
  }

  /**
   * Evicts the keys of {@code store} that {@code watermarkMicros} expires: none without asking the store when
   * the horizon of the version before says none is due.
   */
  void evict(StateStore store, StateTimeIndex index, long watermarkMicros) {
    if (version >= 0 && version == store.version() - 1 && min > watermarkMicros) {
      version = store.version();
      return;
    }
    min = store.removeUpTo(index, watermarkMicros, null).lowestKept();
    version = store.version();
  }

  /** A key this batch added, which stays in the store until the watermark reaches {@code evictAtMicros}. */
  void add(long evictAtMicros) {
    min = Math.min(min, evictAtMicros);
  }
}
