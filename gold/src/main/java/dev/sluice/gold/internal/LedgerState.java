package dev.sluice.gold.internal;

/**
 * What the first step of a batch learned (the number of change rows read, the batch's time) for the steps after
 * the filter; all run in the query's thread, one batch at a time.
 */
final class LedgerState {
  private long batchId = -1;
  private long rowsIn;
  private java.time.Instant batchTimestamp = java.time.Instant.EPOCH;

  synchronized void start(long batch, long rows, java.time.Instant timestamp) {
    this.batchId = batch;
    this.rowsIn = rows;
    this.batchTimestamp = timestamp;
  }

  /** The timestamp of the batch last started ({@code current_timestamp()} of its expressions). */
  synchronized java.time.Instant batchTimestamp() {
    return batchTimestamp;
  }

  synchronized long rowsIn(long batch) {
    if (batch != batchId) {
      throw new IllegalStateException("The gold ledger of batch " + batch + " has no input count (the tagging step"
          + " last ran for batch " + batchId + "); the steps of a batch must run in order");
    }
    return rowsIn;
  }
}
