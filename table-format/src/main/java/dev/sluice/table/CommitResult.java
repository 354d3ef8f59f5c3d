package dev.sluice.table;

import java.util.Map;

/**
 * What a write did: the table version it committed, or {@code skipped} when its
 * {@code txn(appId, version)} was already in the table (an idempotent retry), plus the operation
 * metrics written to {@code commitInfo.operationMetrics}.
 */
public record CommitResult(long version, boolean skipped, Map<String, String> metrics) {
  public CommitResult {
    metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
  }

  static CommitResult skipped(long currentVersion) {
    return new CommitResult(currentVersion, true, Map.of());
  }

  /** A metric as a number, 0 when absent. */
  public long metric(String name) {
    String v = metrics.get(name);
    return v == null ? 0L : Long.parseLong(v);
  }
}
