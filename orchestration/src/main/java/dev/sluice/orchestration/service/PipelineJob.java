package dev.sluice.orchestration.service;

import dev.sluice.orchestration.service.RunRecord.Cause;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;

/**
 * One fire of a pipeline's job, a run or a maintenance task of its table; never two at once, whichever trigger fired.
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
    runs.run(data.getString(Fires.PIPELINE), cause == null ? Cause.MANUAL : Cause.valueOf(cause),
        attempt == null ? 1 : Integer.parseInt(attempt));
  }
}
