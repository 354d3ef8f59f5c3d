package dev.sluice.table.internal.maintenance;

import dev.sluice.table.internal.actions.Metadata;
import dev.sluice.table.internal.log.DeltaLog;
import dev.sluice.table.internal.log.ExpiredLogFiles;
import dev.sluice.table.storage.ObjectStatus;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The cleanup of expired log files that follows each checkpoint a commit writes, as in Delta. */
public final class ExpiredLogCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiredLogCleanup.class);

  private ExpiredLogCleanup() {}

  /** Deletes log files older than {@code delta.logRetentionDuration} below a checkpoint, unless the table turned it off. */
  public static void afterCheckpoint(DeltaLog log, Metadata metadata, Clock clock) {
    if (!Retention.expiredLogCleanupEnabled(metadata)) {
      return;
    }
    try {
      cleanUp(log, metadata, clock);
    } catch (RuntimeException e) {
      // The commit and its checkpoint are durable; expired files only cost listing time until the next try.
      LOG.warn("Deleting expired log files of {} failed: {}", log.tablePath(), e.toString());
    }
  }

  private static void cleanUp(DeltaLog log, Metadata metadata, Clock clock) {
    long cutoff = clock.millis() - Retention.logRetention(metadata).toMillis();
    ExpiredLogFiles.Plan plan = ExpiredLogFiles.plan(log.store(), log.logPath(), cutoff);
    if (plan.files().isEmpty()) {
      return;
    }
    List<String> keys = plan.files().stream().map(ObjectStatus::key).toList();
    log.store().deleteAll(keys);
    LOG.info("Deleted {} expired log files of {}; the log now starts at the checkpoint of version {}", keys.size(),
        log.store().uriOf(log.tablePath()), plan.boundary().getAsLong());
  }
}
