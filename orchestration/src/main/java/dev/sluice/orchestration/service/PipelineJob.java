package dev.sluice.orchestration.service;

import dev.sluice.orchestration.service.RunRecord.Cause;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;

/** One fire of a pipeline's job; a pipeline never runs twice at once, whichever trigger fired it. */
@DisallowConcurrentExecution
final class PipelineJob implements Job {
  private final PipelineRuns runs;

  PipelineJob(PipelineRuns runs) {
    this.runs = runs;
  }

  @Override
  public void execute(JobExecutionContext context) {
    JobDataMap data = context.getMergedJobDataMap();
    String cause = data.getString(Fires.CAUSE);
    String attempt = data.getString(Fires.ATTEMPT);
    runs.run(data.getString(Fires.PIPELINE), cause == null ? Cause.MANUAL : Cause.valueOf(cause),
        attempt == null ? 1 : Integer.parseInt(attempt));
  }
}
