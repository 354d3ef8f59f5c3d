package dev.sluice.table.internal.txn;

/** Bounds and backoff of the commit loop. */
public record CommitPolicy(int maxConflictRetries, int maxIoRetries, long baseBackoffMillis, long maxBackoffMillis) {
  public static final CommitPolicy DEFAULT = new CommitPolicy(200, 5, 5, 1_000);

  /** Sleeps an exponentially growing, jittered time before attempt {@code n} (1-based). */
  void backoff(int n) {
    long cap = Math.min(maxBackoffMillis, baseBackoffMillis << Math.min(n, 16));
    long sleep = (long) (cap * (0.5 + Math.random() / 2));
    if (sleep <= 0) {
      return;
    }
    try {
      Thread.sleep(sleep);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while retrying a commit", e);
    }
  }
}
