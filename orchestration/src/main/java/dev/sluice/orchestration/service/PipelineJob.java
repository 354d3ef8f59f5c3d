package dev.sluice.orchestration.service;

import dev.sluice.orchestration.service.RunRecord.Cause;
import java.util.Optional;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;

/**
 * One fire of a pipeline's job, a run or a maintenance task of its table; never two at once, whichever trigger (or
 * node) fired it.
 */
@DisallowConcurrentExecution
final class PipelineJob implements Job {
  private final PipelineRuns runs;
  private final MaintenanceRuns maintenance;

  PipelineJob(PipelineRuns runs, MaintenanceRuns maintenance) {
    this.runs = runs;
    this.maintenance = maintenance;
  }

  @Override
  public void execute(JobExecutionContext context) {
    JobDataMap data = context.getMergedJobDataMap();
    String task = data.getString(MaintenanceRuns.TASK);
    if (task != null) {
      maintenance.run(data.getString(Fires.PIPELINE), task);
      return;
    }
    String cause = data.getString(Fires.CAUSE);
    String attempt = data.getString(Fires.ATTEMPT);
    String leaseWaits = data.getString(Fires.LEASE_WAITS);
    // a recovery trigger carries the job data of the trigger whose node died
    Cause why = context.isRecovering() ? Cause.RECOVERY : cause == null ? Cause.MANUAL : Cause.valueOf(cause);
    runs.run(new PipelineRuns.Fire(data.getString(Fires.PIPELINE), why,
        attempt == null ? 1 : Integer.parseInt(attempt), leaseWaits == null ? 0 : Integer.parseInt(leaseWaits),
        Optional.ofNullable(context.getScheduledFireTime()).map(java.util.Date::toInstant)));
  }
}
