package dev.sluice.ingestion.state;

import dev.sluice.table.data.Row;
import java.util.Iterator;

/**
 * The state of one stateful operator (one partition) while batch N runs: loaded at version N-1,
 * changed by the batch, then committed as version N (or aborted). Keys and values are rows of the
 * store's {@link StateSchema}; keys compare by value. Not thread-safe: one batch uses it at a time.
 */
public interface StateStore {
  /** The version this store will commit (the batch id + 1: version 0 is the empty initial state). */
  long version();

  /** The value for {@code key}, or null. */
  Row get(Row key);

  void put(Row key, Row value);

  void remove(Row key);

  /** Every entry, in no particular order; changes made during the iteration are not reflected. */
  Iterator<StateEntry> iterator();

  /** Number of keys now. */
  long size();

  /**
   * Makes the changes durable as {@link #version()}; rewriting an existing version (a re-run batch)
   * replaces it.
   */
  void commit();

  /** Drops the changes; the store must not be used afterwards. */
  void abort();

  /** Metrics of this batch's use of the store (valid after commit). */
  StateStoreMetrics metrics();
}
