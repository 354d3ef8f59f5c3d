package dev.sluice.orchestration.service;

import dev.sluice.config.MaintenanceConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.LogCleanup;
import dev.sluice.table.Optimize;
import dev.sluice.table.Table;
import dev.sluice.table.Vacuum;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the scheduled maintenance of a pipeline's sink table: OPTIMIZE, or VACUUM followed by expired-log cleanup.
 * A failure is logged and the next fire tries again; it never affects the pipeline's runs.
 */
final class MaintenanceRuns {
  /** The job data key naming the task of a maintenance fire. */
  static final String TASK = "maintenance";
  static final String OPTIMIZE = "optimize";
  static final String VACUUM = "vacuum";
  private static final Logger LOG = LoggerFactory.getLogger(SluiceService.class);

  private final SluiceConfig config;
  private final SluiceSession session;
  private final ActiveRuns active;

  MaintenanceRuns(SluiceConfig config, SluiceSession session, ActiveRuns active) {
    this.config = config;
    this.session = session;
    this.active = active;
  }

  void run(String pipeline, String task) {
    PipelineConfig p = config.pipeline(pipeline).orElseThrow(() -> new IllegalStateException(
        "The scheduler fired maintenance of pipeline '" + pipeline + "', which is not in the configuration"));
    String runName = "maintenance:" + task + ":" + pipeline;
    if (!active.enter()) {
      return;
    }
    try {
      Table table = session.table(config.tableUri(p.sink().table()).toString());
      if (!table.exists()) {
        LOG.info("Skipping {} of {}: pipeline {} has not created it yet", task, p.sink().table(), pipeline);
        return;
      }
      switch (task) {
        case OPTIMIZE -> optimize(p, table, p.maintenance().optimize().orElseThrow());
        case VACUUM -> vacuum(p, table, p.maintenance().vacuum().orElseThrow());
        default -> throw new IllegalStateException("Unknown maintenance task " + task);
      }
    } catch (RuntimeException e) {
      LOG.error("Scheduled {} of {} (pipeline {}) failed; it runs again at its next fire: {}",
          task.toUpperCase(Locale.ROOT), p.sink().table(), pipeline, e.getMessage());
    } finally {
      active.exit(runName);
    }
  }

  private static void optimize(PipelineConfig p, Table table, MaintenanceConfig.OptimizeTask task) {
    // A conflicting MERGE of the pipeline's continuous query is likely on a busy table: plan again twice.
    Optimize o = table.optimize().retries(2);
    task.where().ifPresent(w -> o.where(Expressions.toTablePredicate(w, table.latestSnapshot().schema())
        .orElseThrow(() -> new IllegalArgumentException("maintenance.optimize.where `" + w + "` of pipeline "
            + p.name() + " cannot select partitions; write a condition on partition columns"))));
    if (!task.zorderBy().isEmpty()) {
      o.zOrderBy(task.zorderBy().toArray(String[]::new));
    }
    if (!task.clusterBy().isEmpty()) {
      o.clusterBy(task.clusterBy().toArray(String[]::new));
    }
    task.targetFileSize().ifPresent(o::targetFileSize);
    Optimize.Result r = o.execute();
    if (r.noop()) {
      LOG.info("OPTIMIZE of {}: nothing to compact at version {}", p.sink().table(), r.readVersion());
    } else {
      LOG.info("OPTIMIZE of {}: {} files rewritten into {} in version {}", p.sink().table(), r.filesRemoved(),
          r.filesAdded(), r.committedVersion().getAsLong());
    }
  }

  private static void vacuum(PipelineConfig p, Table table, MaintenanceConfig.VacuumTask task) {
    Vacuum v = table.vacuum();
    task.retain().ifPresent(i -> v.retain(i.duration()));
    Vacuum.Result r = v.execute();
    LogCleanup.Result log = table.cleanUpLog().execute();
    LOG.info("VACUUM of {}: {} files ({} bytes) deleted with a retention of {}; {} expired log files deleted",
        p.sink().table(), r.numFiles(), r.bytes(), r.retention(), log.files().size());
  }
}
