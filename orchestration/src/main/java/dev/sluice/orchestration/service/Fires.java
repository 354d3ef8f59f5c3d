package dev.sluice.orchestration.service;

import dev.sluice.config.ScheduleConfig;
import dev.sluice.orchestration.service.RunRecord.Cause;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.ScheduleBuilder;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Quartz side of the service: one durable job per pipeline (so that every trigger of a pipeline —
 * its schedule, its upstreams, its retries — shares the job and {@code @DisallowConcurrentExecution} keeps
 * its runs from overlapping), and the triggers that fire it. Job data holds only strings, as a JDBC job
 * store would need.
 */
final class Fires {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceService.class);
  static final String GROUP = "sluice";
  static final String PIPELINE = "pipeline";
  static final String CAUSE = "cause";
  static final String ATTEMPT = "attempt";
  /** How many times a recovery fire has waited for a dead runner's lease to expire. */
  static final String LEASE_WAITS = "leaseWaits";
  private static final String SCHEDULE_TRIGGER = "schedule";
  private static final String CONTINUOUS_TRIGGER = "continuous";
  private static final String UPSTREAM_TRIGGER = "upstream";

  private final Scheduler scheduler;

  Fires(Scheduler scheduler) {
    this.scheduler = scheduler;
  }

  static JobKey job(String pipeline) {
    return JobKey.jobKey(pipeline, GROUP);
  }

  void addJob(String pipeline) throws SchedulerException {
    // requestRecovery: with a cluster store, a fire whose node died mid-run is fired again on another node
    JobDetail job = JobBuilder.newJob(PipelineJob.class).withIdentity(job(pipeline)).storeDurably()
        .requestRecovery().usingJobData(PIPELINE, pipeline).build();
    scheduler.addJob(job, true);
  }

  /**
   * Removes the jobs (and their triggers) of pipelines no longer in the config: a shared job store keeps what an
   * earlier configuration scheduled.
   */
  void removeJobsOtherThan(Set<String> pipelines) throws SchedulerException {
    for (JobKey key : scheduler.getJobKeys(GroupMatcher.jobGroupEquals(GROUP))) {
      if (!pipelines.contains(key.getName())) {
        LOG.info("Removing the schedule of pipeline {}: it is no longer in the configuration", key.getName());
        scheduler.deleteJob(key);
      }
    }
  }

  /** Fires the pipeline on its schedule: an interval starts now, a cron expression at its next time. */
  void schedule(String pipeline, ScheduleConfig schedule) throws SchedulerException {
    TriggerKey key = TriggerKey.triggerKey(SCHEDULE_TRIGGER, pipeline);
    Trigger existing = scheduler.getTrigger(key);
    if (existing != null && sameSchedule(existing, schedule)) {
      // Another node of the cluster (or an earlier start) scheduled it: keep its fire times.
      return;
    }
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
    Trigger trigger = TriggerBuilder.newTrigger().withIdentity(key).forJob(job(pipeline))
        .usingJobData(CAUSE, Cause.SCHEDULE.name()).usingJobData(ATTEMPT, "1").withSchedule(builder)
        .startNow().build();
    if (existing != null) {
      LOG.info("Pipeline {}: its schedule changed; rescheduling", pipeline);
      scheduler.rescheduleJob(key, trigger);
      return;
    }
    try {
      scheduler.scheduleJob(trigger);
    } catch (ObjectAlreadyExistsException raced) {
      // another node starting at the same moment scheduled it
    }
  }

  private static boolean sameSchedule(Trigger existing, ScheduleConfig schedule) {
    if (schedule instanceof ScheduleConfig.Every every) {
      return existing instanceof SimpleTrigger t
          && t.getRepeatInterval() == Math.max(1, every.interval().duration().toMillis());
    }
    return existing instanceof CronTrigger t
        && t.getCronExpression().equals(((ScheduleConfig.Cron) schedule).expression());
  }

  /**
   * Starts a continuous pipeline unless its start is already pending or running (a shared job store: another node
   * started it).
   */
  void continuous(String pipeline) throws SchedulerException {
    TriggerKey key = TriggerKey.triggerKey(CONTINUOUS_TRIGGER, pipeline);
    if (scheduler.checkExists(key)) {
      return;
    }
    try {
      scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity(key).forJob(job(pipeline))
          .usingJobData(CAUSE, Cause.CONTINUOUS.name()).usingJobData(ATTEMPT, "1")
          .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
          .startNow().build());
    } catch (ObjectAlreadyExistsException raced) {
      // another node starting at the same moment started it
    }
  }

  /**
   * Fires the pipeline now because an upstream succeeded, unless such a fire is already pending (not yet started):
   * one pending upstream fire per pipeline, across every node of a cluster, since the run reads everything
   * committed when it starts. Returns whether a fire was added.
   */
  boolean upstream(String pipeline) throws SchedulerException {
    boolean started = false;
    for (Trigger t : scheduler.getTriggersOfJob(job(pipeline))) {
      if (t.getKey().getName().startsWith(UPSTREAM_TRIGGER)) {
        if (t.getNextFireTime() != null) {
          return false;
        }
        started |= t.getKey().getName().equals(UPSTREAM_TRIGGER);
      }
    }
    // The fixed name makes two nodes adding it at once collide; once that fire has started (it runs, or ran),
    // the next one takes a name of its own.
    TriggerKey key = TriggerKey.triggerKey(started ? UPSTREAM_TRIGGER + "-" + UUID.randomUUID() : UPSTREAM_TRIGGER,
        pipeline);
    try {
      scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity(key).forJob(job(pipeline))
          .usingJobData(CAUSE, Cause.UPSTREAM.name()).usingJobData(ATTEMPT, "1")
          .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
          .startNow().build());
      return true;
    } catch (ObjectAlreadyExistsException raced) {
      return false;   // another node added the pending fire at the same moment
    }
  }

  /** Fires the pipeline once at {@code at} (or as soon as its running run ends). */
  void once(String pipeline, Instant at, Cause cause, int attempt) throws SchedulerException {
    once(pipeline, at, cause, attempt, 0);
  }

  /** As {@link #once(String, Instant, Cause, int)}, for a recovery fire that has waited {@code leaseWaits} times. */
  void once(String pipeline, Instant at, Cause cause, int attempt, int leaseWaits) throws SchedulerException {
    scheduler.scheduleJob(TriggerBuilder.newTrigger()
        .withIdentity(cause.name().toLowerCase(java.util.Locale.ROOT) + "-" + UUID.randomUUID(), pipeline)
        .forJob(job(pipeline)).usingJobData(CAUSE, cause.name()).usingJobData(ATTEMPT, Integer.toString(attempt))
        .usingJobData(LEASE_WAITS, Integer.toString(leaseWaits))
        .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
        .startAt(Date.from(at)).build());
  }

  /** The next time a trigger of the pipeline fires, if any is pending. */
  Optional<Instant> next(String pipeline) throws SchedulerException {
    return scheduler.getTriggersOfJob(job(pipeline)).stream().map(Trigger::getNextFireTime)
        .filter(d -> d != null).map(Date::toInstant).min(Instant::compareTo);
  }
}
