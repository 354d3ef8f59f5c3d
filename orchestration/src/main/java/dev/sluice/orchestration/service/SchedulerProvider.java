package dev.sluice.orchestration.service;

import java.util.Properties;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.StdSchedulerFactory;

/**
 * Creates the Quartz scheduler the service runs on: the seam where a clustered JDBC job store can replace
 * the default RAM store without touching the service.
 */
@FunctionalInterface
public interface SchedulerProvider {
  /** How long past its fire time a trigger counts as misfired (then it fires once, now). */
  long MISFIRE_THRESHOLD_MS = 1000;

  /**
   * A new, not yet started scheduler named {@code instanceName} with at least {@code threads} worker threads.
   * The service sets its own job factory on it.
   */
  Scheduler create(String instanceName, int threads) throws SchedulerException;

  /** Quartz's in-memory job store (the default): schedules live as long as the service. */
  static SchedulerProvider ramJobStore() {
    return withProperties(new Properties());
  }

  /**
   * A {@link StdSchedulerFactory} with the service's defaults (RAM job store, daemon worker threads, a 1 s
   * misfire threshold) overridden by {@code overrides}, for example {@code org.quartz.jobStore.class=
   * org.quartz.impl.jdbcjobstore.JobStoreTX} with {@code org.quartz.jobStore.isClustered=true} and a data
   * source. An {@code org.quartz.scheduler.instanceName} in {@code overrides} wins over the service's name
   * (clustered nodes share one name).
   */
  static SchedulerProvider withProperties(Properties overrides) {
    Properties fixed = new Properties();
    fixed.putAll(overrides);
    return (instanceName, threads) -> {
      Properties p = new Properties();
      p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, instanceName);
      p.setProperty(StdSchedulerFactory.PROP_THREAD_POOL_CLASS, "org.quartz.simpl.SimpleThreadPool");
      p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
      p.setProperty("org.quartz.threadPool.threadNamePrefix", instanceName + "-worker");
      // The service decides when the JVM ends (awaitStop, shutdown hook); idle workers must not keep it alive.
      p.setProperty("org.quartz.threadPool.makeThreadsDaemons", "true");
      p.setProperty("org.quartz.scheduler.makeSchedulerThreadDaemon", "true");
      p.setProperty(StdSchedulerFactory.PROP_JOB_STORE_CLASS, "org.quartz.simpl.RAMJobStore");
      // A fire held back by a still-running run of the same pipeline is then a misfire, handled as one run now
      // (not a catch-up burst of every interval it missed).
      p.setProperty("org.quartz.jobStore.misfireThreshold", Long.toString(MISFIRE_THRESHOLD_MS));
      p.putAll(fixed);
      return new StdSchedulerFactory(p).getScheduler();
    };
  }
}
