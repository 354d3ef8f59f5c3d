package dev.sluice.orchestration.service;

import dev.sluice.config.MaintenanceConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedules each pipeline's table maintenance. Its triggers fire the pipeline's own job, so that
 * {@code @DisallowConcurrentExecution} keeps maintenance and the pipeline's runs from overlapping (on every node of
 * a cluster too); a fire that comes while the pipeline runs waits for the run to end. A continuous pipeline's job
 * never ends, so its maintenance gets a job of its own, overlapping the query: Delta's conflict rules make that safe
 * (compaction never conflicts with appends; a conflicting MERGE makes OPTIMIZE plan again).
 */
final class MaintenanceSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceService.class);

  private MaintenanceSchedule() {}

  static void schedule(Scheduler scheduler, SluiceConfig config) throws SchedulerException {
    for (PipelineConfig p : config.pipelines()) {
      MaintenanceConfig m = p.maintenance();
      if (m.isEmpty()) {
        continue;
      }
      JobKey job = Fires.job(p.name());
      if (PipelineRuns.continuous(p)) {
        job = JobKey.jobKey("maintenance-" + p.name(), Fires.GROUP);
        scheduler.addJob(JobBuilder.newJob(PipelineJob.class).withIdentity(job).storeDurably()
            .usingJobData(Fires.PIPELINE, p.name()).build(), true);
      }
      if (m.optimize().isPresent()) {
        add(scheduler, job, p.name(), MaintenanceRuns.OPTIMIZE, m.optimize().get().schedule());
      }
      if (m.vacuum().isPresent()) {
        add(scheduler, job, p.name(), MaintenanceRuns.VACUUM, m.vacuum().get().schedule());
      }
    }
  }

  private static void add(Scheduler scheduler, JobKey job, String pipeline, String task,
      MaintenanceConfig.Schedule schedule) throws SchedulerException {
    scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity("maintenance-" + task, pipeline).forJob(job)
        .usingJobData(MaintenanceRuns.TASK, task)
        // a fire missed while the pipeline ran becomes one run right after it
        .withSchedule(CronScheduleBuilder.cronSchedule(schedule.quartzCron()).withMisfireHandlingInstructionFireAndProceed())
        .startNow().build());
    LOG.info("Pipeline {}: {} of its table scheduled {} ({})", pipeline, task, schedule.text(), schedule.quartzCron());
  }
}
