package dev.sluice.silver;

import dev.sluice.table.Table;
import dev.sluice.table.expressions.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new silver checkpoint re-reads bronze from its first version and quarantines every failing row again, so the
 * rows the old checkpoint quarantined are removed first (one DELETE commit; time travel still shows them):
 * otherwise each would be in {@code <table>_quarantine} twice. The silver table itself needs nothing: its MERGE
 * by key with {@code sequence_by} re-derives the same rows.
 */
final class ReprocessedQuarantine {
  private static final Logger LOG = LoggerFactory.getLogger(ReprocessedQuarantine.class);

  private ReprocessedQuarantine() {}

  static void clear(String pipeline, Table quarantine, String checkpoint) {
    if (!quarantine.exists() || quarantine.latestSnapshot().files().isEmpty()) {
      return;
    }
    quarantine.newDelete().where(Predicate.alwaysTrue()).commit();
    LOG.warn("Pipeline '{}' starts a new checkpoint {}: it re-reads bronze from the start and quarantines the failing"
        + " rows again, so the rows already in {} were deleted first (they remain readable by time travel)",
        pipeline, checkpoint, quarantine.uri());
  }
}
