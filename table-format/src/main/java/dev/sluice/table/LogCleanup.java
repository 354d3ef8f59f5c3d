package dev.sluice.table;

import dev.sluice.table.internal.TableContext;
import dev.sluice.table.internal.log.ExpiredLogFiles;
import dev.sluice.table.internal.maintenance.Retention;
import dev.sluice.table.internal.replay.SnapshotState;
import dev.sluice.table.storage.ObjectStatus;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * Deletes expired log files (Delta's expired-log cleanup): commit JSON, checkpoints and checksums of versions older
 * than the newest checkpoint committed before the retention ({@code delta.logRetentionDuration}, default 30 days).
 * The log then starts at that checkpoint, so every version from it on stays readable. Commits run it after each
 * checkpoint they write unless {@code delta.enableExpiredLogCleanup=false}, as Delta does.
 */
public final class LogCleanup {
  private final TableContext context;
  private Duration retention;
  private boolean dryRun;

  LogCleanup(TableContext context) {
    this.context = context;
  }

  /** Keep the log of versions this young (default: {@code delta.logRetentionDuration}, else 30 days). */
  public LogCleanup retain(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("The log retention cannot be negative, got " + value);
    }
    this.retention = value;
    return this;
  }

  /** Only list the expired files (default false). */
  public LogCleanup dryRun(boolean value) {
    this.dryRun = value;
    return this;
  }

  /** @throws dev.sluice.table.exceptions.TableNotFoundException when there is no table at the path */
  public Result execute() {
    SnapshotState snapshot = context.latestState();
    Duration effective = retention == null ? Retention.logRetention(snapshot.metadata()) : retention;
    ExpiredLogFiles.Plan plan = ExpiredLogFiles.plan(context.log().store(), context.log().logPath(),
        context.clock().millis() - effective.toMillis());
    List<String> keys = plan.files().stream().map(ObjectStatus::key).toList();
    if (!dryRun && !keys.isEmpty()) {
      context.log().store().deleteAll(keys);
    }
    return new Result(dryRun, effective, plan.boundary(), keys);
  }

  /**
   * What a log cleanup found and did.
   *
   * @param earliestVersion the checkpoint version the log starts at afterwards; empty when nothing had expired
   * @param files the log files deleted (or, on a dry run, that would be)
   */
  public record Result(boolean dryRun, Duration retention, OptionalLong earliestVersion, List<String> files) {
    public Result {
      files = List.copyOf(files);
    }
  }
}
