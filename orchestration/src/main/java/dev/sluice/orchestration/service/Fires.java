package dev.sluice.orchestration.service;

import dev.sluice.config.ScheduleConfig;
import dev.sluice.orchestration.service.RunRecord.Cause;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.UUID;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ScheduleBuilder;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

/**
 * The Quartz side of the service: one durable job per pipeline (so that every trigger of a pipeline —
 * its schedule, its upstreams, its retries — shares the job and {@code @DisallowConcurrentExecution} keeps
 * its runs from overlapping), and the triggers that fire it. Job data holds only strings, as a JDBC job
 * store would need.
 */
final class Fires {
  static final String GROUP = "sluice";
  static final String PIPELINE = "pipeline";
  static final String CAUSE = "cause";
  static final String ATTEMPT = "attempt";

  private final Scheduler scheduler;

  Fires(Scheduler scheduler) {
    this.scheduler = scheduler;
  }

  static JobKey job(String pipeline) {
    return JobKey.jobKey(pipeline, GROUP);
  }

  void addJob(String pipeline) throws SchedulerException {
    JobDetail job = JobBuilder.newJob(PipelineJob.class).withIdentity(job(pipeline)).storeDurably()
        .usingJobData(PIPELINE, pipeline).build();
    scheduler.addJob(job, true);
  }

  /** Fires the pipeline on its schedule: an interval starts now, a cron expression at its next time. */
  void schedule(String pipeline, ScheduleConfig schedule) throws SchedulerException {
    ScheduleBuilder<? extends Trigger> builder;
    if (schedule instanceof ScheduleConfig.Every every) {
      builder = SimpleScheduleBuilder.simpleSchedule()
          .withIntervalInMilliseconds(Math.max(1, every.interval().duration().toMillis())).repeatForever()
          // after a missed fire (the previous run outlasted the interval, or the service was busy): one run now
          .withMisfireHandlingInstructionFireNow();
    } else {
      builder = CronScheduleBuilder.cronSchedule(((ScheduleConfig.Cron) schedule).expression())
          .withMisfireHandlingInstructionFireAndProceed();
    }
    scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity("schedule", pipeline).forJob(job(pipeline))
        .usingJobData(CAUSE, Cause.SCHEDULE.name()).usingJobData(ATTEMPT, "1").withSchedule(builder)
        .startNow().build());
  }

  /** Fires the pipeline once at {@code at} (or as soon as its running run ends). */
  void once(String pipeline, Instant at, Cause cause, int attempt) throws SchedulerException {
    scheduler.scheduleJob(TriggerBuilder.newTrigger()
        .withIdentity(cause.name().toLowerCase(java.util.Locale.ROOT) + "-" + UUID.randomUUID(), pipeline)
        .forJob(job(pipeline)).usingJobData(CAUSE, cause.name()).usingJobData(ATTEMPT, Integer.toString(attempt))
        .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
        .startAt(Date.from(at)).build());
  }

  /** The next time a trigger of the pipeline fires, if any is pending. */
  Optional<Instant> next(String pipeline) throws SchedulerException {
    return scheduler.getTriggersOfJob(job(pipeline)).stream().map(Trigger::getNextFireTime)
        .filter(d -> d != null).map(Date::toInstant).min(Instant::compareTo);
  }
}
