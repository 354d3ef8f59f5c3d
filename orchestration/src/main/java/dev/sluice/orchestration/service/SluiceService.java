package dev.sluice.orchestration.service;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.Sessions;
import dev.sluice.orchestration.service.RunRecord.Cause;
import dev.sluice.orchestration.service.cluster.ClusterStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-running Sluice service: Quartz runs each pipeline of a configuration as it asks.
 *
 * <ul>
 *   <li>A pipeline with a {@code schedule} ({@code every: <interval>}, first fire at start; or a Quartz
 *       {@code cron}) runs as an availableNow query (a {@code once} trigger: one batch) on each fire. Runs of one
 *       pipeline never overlap: a fire that comes while the pipeline runs waits for the run to end and then
 *       fires once (Quartz misfire handling: fire now / fire and proceed), never as a burst.
 *   <li>A pipeline with {@code after: [upstream…]} also runs when an upstream run succeeds, and not while
 *       an upstream's latest run failed (the rule below); without a schedule this is the only way it runs.
 *   <li>A pipeline whose trigger is {@code processing_time} runs as a continuous query from start to stop.
 *   <li>A failed run is recorded with its message and retried per {@link ServiceOptions#retry()}.
 *   <li>{@link #stop()} is graceful: no new fires, every running query stops at its next batch boundary
 *       (nothing half-committed), then the scheduler shuts down.
 * </ul>
 *
 * <p>The {@code after} rule, for a pipeline D with {@code after: [U1, …, Un]}: (1) when a run of some Ui
 * succeeds, D is fired (cause {@link Cause#UPSTREAM}) unless the latest recorded run of one of its {@code after}
 * upstreams failed or was stopped — an upstream that has not run since the service started does not hold D back;
 * (2) whenever D fires for any cause but {@link Cause#MANUAL}, it is skipped (logged, no run record) while such a
 * failed latest upstream run exists, so a failing upstream stops its downstream even when the downstream has a
 * schedule of its own; (3) D has at most one upstream fire pending: it reads everything committed when it starts.
 * Only {@code after} counts ({@code source.pipeline} and join pipelines order {@code sluice run}, not the
 * service). Continuous pipelines never finish a run, so they fire no downstream and are not fired by one.
 *
 * <p>Retries: a failed run (any cause) is fired again after {@link RetryPolicy#backoff(int)} as attempt n+1 (cause
 * {@link Cause#RETRY}; a continuous pipeline restarts as {@link Cause#CONTINUOUS}) until
 * {@link RetryPolicy#attempts()} tries have failed; then it waits for its next fire.
 *
 * <p>Typical use, as {@code sluice serve} does: {@code try (SluiceService s = SluiceService.start(config,
 * ServiceOptions.defaults()).stopOnShutdown()) { s.awaitStop(); }}.
 */
public final class SluiceService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceService.class);

  private final SluiceConfig config;
  private final SluiceSession session;
  private final boolean ownsSession;
  private final ServiceOptions options;
  private final ClusterStore cluster;
  private final boolean ownsCluster;
  private final ListenedRunStore history;
  private final ActiveRuns active = new ActiveRuns();
  private final RunCounter counter;
  private final PipelineRuns runs;
  private final Misfires misfires = new Misfires();
  private final AtomicBoolean stopCalled = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private Scheduler scheduler;
  private Fires fires;
  private volatile Thread shutdownHook;

  private SluiceService(SluiceConfig config, SluiceSession session, boolean ownsSession, ServiceOptions options,
      ClusterStore cluster, boolean ownsCluster) {
    this.config = config;
    this.session = session;
    this.ownsSession = ownsSession;
    this.options = options;
    this.cluster = cluster;
    this.ownsCluster = ownsCluster;
    this.history = new ListenedRunStore(cluster == null ? RunStore.inMemory(options.historyLimit()) : cluster.runs());
    this.counter = new RunCounter(config.pipelines().stream().map(PipelineConfig::name).collect(Collectors.toSet()));
    this.runs = new PipelineRuns(config, session, options, history, active, counter);
  }

  /**
   * Starts the service on {@code session} (which the caller keeps and closes after {@link #stop()}).
   *
   * @throws IllegalStateException when the scheduler cannot be created or started
   */
  public static SluiceService start(SluiceConfig config, SluiceSession session, ServiceOptions options) {
    return start(config, session, false, options);
  }

  /** Starts the service on a session of its own ({@link Sessions#forConfig}), closed when the service stops. */
  public static SluiceService start(SluiceConfig config, ServiceOptions options) {
    return start(config, Sessions.forConfig(config), true, options);
  }

  /**
   * Starts the service as a node of the cluster on {@code cluster} (which the caller opened, for example with a
   * decorated connection pool, and closes after {@link #stop()}), whatever the config's {@code service:} section says.
   */
  public static SluiceService start(SluiceConfig config, SluiceSession session, ServiceOptions options,
      ClusterStore cluster) {
    return start(config, session, false, options, java.util.Objects.requireNonNull(cluster, "cluster"), false);
  }

  private static SluiceService start(SluiceConfig config, SluiceSession session, boolean owns, ServiceOptions options) {
    ClusterStore cluster;
    try {
      // the config's service: section makes this node part of a cluster; ClusterStore names a store it cannot use
      cluster = config.service().map(ClusterStore::open).orElse(null);
    } catch (RuntimeException e) {
      if (owns) {
        session.close();
      }
      throw e;
    }
    return start(config, session, owns, options, cluster, true);
  }

  private static SluiceService start(SluiceConfig config, SluiceSession session, boolean owns, ServiceOptions options,
      ClusterStore cluster, boolean ownsCluster) {
    SluiceService s = new SluiceService(config, session, owns, options, cluster, ownsCluster);
    try {
      s.schedule();
    } catch (SchedulerException | RuntimeException e) {
      s.stop();
      throw new IllegalStateException("Could not start the Sluice service: " + e.getMessage()
          + ". Check the scheduler settings (ServiceOptions.scheduler) and the schedules in the config.", e);
    }
    return s;
  }

  private void schedule() throws SchedulerException {
    long continuous = config.pipelines().stream().filter(PipelineRuns::continuous).count();
    // each continuous query holds a worker for as long as it runs
    SchedulerProvider provider = cluster == null ? options.scheduler() : cluster.schedulers();
    scheduler = provider.create("sluice-" + UUID.randomUUID().toString().substring(0, 8),
        options.threads() + (int) continuous);
    MaintenanceRuns maintenance = new MaintenanceRuns(config, session, active);
    scheduler.setJobFactory((bundle, s) -> new PipelineJob(runs, maintenance));
    scheduler.getListenerManager().addTriggerListener(misfires);
    fires = new Fires(scheduler);
    runs.fires(fires);
    if (cluster != null) {
      runs.clusterNode(scheduler.getSchedulerInstanceId());
      LOG.info("Joining the Sluice cluster as node {}", scheduler.getSchedulerInstanceId());
    }
    session.streams().addListener(counter);
    fires.removeJobsOtherThan(config.pipelines().stream().map(PipelineConfig::name).collect(Collectors.toSet()));
    for (PipelineConfig p : config.pipelines()) {
      fires.addJob(p.name());
      if (PipelineRuns.continuous(p)) {
        p.schedule().ifPresent(s -> LOG.warn("Pipeline {} has trigger processing_time, so it runs continuously;"
            + " its schedule is ignored (remove it, or use trigger: available_now to run it on the schedule)",
            p.name()));
        fires.continuous(p.name());
        LOG.info("Pipeline {}: continuous ({})", p.name(), p.trigger());
      } else if (p.schedule().isPresent()) {
        fires.schedule(p.name(), p.schedule().get());
        LOG.info("Pipeline {}: scheduled {}{}", p.name(), p.schedule().get(),
            p.after().isEmpty() ? "" : " and after " + p.after());
      } else if (!p.after().isEmpty()) {
        LOG.info("Pipeline {}: after {}", p.name(), p.after());
      } else {
        LOG.info("Pipeline {}: no schedule, after or processing_time trigger; it runs only when triggered",
            p.name());
      }
    }
    MaintenanceSchedule.schedule(scheduler, config);
    scheduler.start();
  }

  /**
   * The pipeline's run records, oldest first (at most {@link ServiceOptions#historyLimit()}; with a cluster store the
   * latest 100, of every node).
   */
  public List<RunRecord> runs(String pipeline) {
    requirePipeline(pipeline);
    return history.runs(pipeline);
  }

  /** The run history: this node's in memory, or the cluster's table shared by every node. */
  public RunStore runStore() {
    return history;
  }

  /** This node's name in run records: its cluster instance id, or {@link RunRecord#LOCAL_NODE}. */
  public String node() {
    return runs.node();
  }

  /** Whether the service runs on the cluster store (the config's {@code service:} section). */
  public boolean clustered() {
    return cluster != null;
  }

  /** The pipeline's latest run record, if it has run since the service started. */
  public Optional<RunRecord> lastRun(String pipeline) {
    requirePipeline(pipeline);
    return history.last(pipeline);
  }

  /** When a trigger of the pipeline fires next (its schedule, a pending retry or upstream fire), if any. */
  public Optional<Instant> nextFire(String pipeline) {
    requirePipeline(pipeline);
    try {
      return stopCalled.get() ? Optional.empty() : fires.next(pipeline);
    } catch (SchedulerException e) {
      throw new IllegalStateException("Could not read the triggers of pipeline " + pipeline + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs the pipeline now (cause {@link Cause#MANUAL}; after a run in progress when there is one), whatever
   * its upstreams' state.
   *
   * @throws IllegalArgumentException when the config has no such pipeline
   * @throws IllegalStateException when the service is stopping
   */
  public void trigger(String pipeline) {
    requirePipeline(pipeline);
    if (stopCalled.get()) {
      throw new IllegalStateException("The Sluice service is stopping; pipeline " + pipeline + " was not triggered");
    }
    try {
      fires.once(pipeline, Instant.now(), Cause.MANUAL, 1);
    } catch (SchedulerException e) {
      throw new IllegalStateException("Could not trigger pipeline " + pipeline + ": " + e.getMessage(), e);
    }
  }

  /**
   * Pauses the pipeline: none of its triggers fires (schedule, upstream, retry, manual) until {@link #resume}; a run
   * in progress goes on. A pause lasts as long as the scheduler's job store (the service, with the RAM store).
   *
   * @throws IllegalArgumentException when the config has no such pipeline
   */
  public void pause(String pipeline) {
    requirePipeline(pipeline);
    try {
      // a paused trigger group also pauses the triggers added to it later (Fires puts them there)
      scheduler.pauseTriggers(GroupMatcher.triggerGroupEquals(pipeline));
    } catch (SchedulerException e) {
      throw new IllegalStateException("Could not pause pipeline " + pipeline + ": " + e.getMessage(), e);
    }
  }

  /**
   * Resumes a paused pipeline; a schedule that fell due while paused fires once, now (its misfire rule).
   *
   * @throws IllegalArgumentException when the config has no such pipeline
   */
  public void resume(String pipeline) {
    requirePipeline(pipeline);
    try {
      scheduler.resumeTriggers(GroupMatcher.triggerGroupEquals(pipeline));
    } catch (SchedulerException e) {
      throw new IllegalStateException("Could not resume pipeline " + pipeline + ": " + e.getMessage(), e);
    }
  }

  /** Whether the pipeline is paused ({@link #pause}). */
  public boolean paused(String pipeline) {
    requirePipeline(pipeline);
    try {
      return scheduler.getPausedTriggerGroups().contains(pipeline);
    } catch (SchedulerException e) {
      throw new IllegalStateException("Could not read the state of pipeline " + pipeline + ": " + e.getMessage(), e);
    }
  }

  /** Whether a run of the pipeline is in progress now. */
  public boolean running(String pipeline) {
    requirePipeline(pipeline);
    return active.running(pipeline);
  }

  /** Fires of the pipeline's triggers that came late (the misfire threshold) since the service started. */
  public long misfires(String pipeline) {
    requirePipeline(pipeline);
    return misfires.of(pipeline);
  }

  /** Calls {@code listener} with every run recorded from now on (on the run's thread; it must be quick). */
  public void onRun(Consumer<RunRecord> listener) {
    history.listen(listener);
  }

  /** Whether the scheduler runs and the service is not stopping: it takes fires. */
  public boolean ready() {
    try {
      return !stopCalled.get() && scheduler != null && scheduler.isStarted() && !scheduler.isInStandbyMode()
          && !scheduler.isShutdown();
    } catch (SchedulerException e) {
      return false;
    }
  }

  /** The configuration the service runs. */
  public SluiceConfig config() {
    return config;
  }

  /** The session the service's queries run on (its listeners see every batch). */
  public SluiceSession session() {
    return session;
  }

  /** Pipelines running at this moment. */
  public int runningCount() {
    return active.running();
  }

  /** Stops the service when the JVM shuts down (SIGTERM, Ctrl-C); returns this. */
  public SluiceService stopOnShutdown() {
    Thread hook = new Thread(this::stop, "sluice-service-shutdown");
    shutdownHook = hook;
    Runtime.getRuntime().addShutdownHook(hook);
    return this;
  }

  /**
   * Stops gracefully: no new fires; each running query stops at its next batch boundary; waits for them at
   * most {@link ServiceOptions#stopTimeout()} (a query still running then is left to the JVM's exit, which the
   * checkpoint protocol makes safe); shuts the scheduler down. Safe to call more than once and from any thread,
   * including a shutdown hook: later calls wait for the first to finish.
   */
  public void stop() {
    if (!stopCalled.compareAndSet(false, true)) {
      awaitStop();
      return;
    }
    try {
      LOG.info("Stopping the Sluice service: {} running pipeline(s) stop at their next batch boundary",
          active.running());
      standby();
      active.stopAll();
      boolean idle = awaitIdle();
      shutdownScheduler(idle);
      if (cluster != null && ownsCluster) {
        cluster.close();
      }
      session.streams().removeListener(counter);
      if (ownsSession) {
        session.close();
      }
      LOG.info("The Sluice service stopped");
    } finally {
      stopped.countDown();
      removeShutdownHook();
    }
  }

  private void standby() {
    try {
      if (scheduler != null) {
        scheduler.standby();
      }
    } catch (SchedulerException e) {
      LOG.warn("Could not pause the scheduler: {}", e.getMessage());
    }
  }

  private boolean awaitIdle() {
    try {
      boolean idle = active.awaitIdle(options.stopTimeout());
      if (!idle) {
        LOG.warn("{} pipeline(s) still running after {} s (ServiceOptions.stopTimeout); leaving them to stop on"
            + " their own", active.running(), options.stopTimeout().toSeconds());
      }
      return idle;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void shutdownScheduler(boolean waitForJobs) {
    try {
      if (scheduler != null) {
        scheduler.shutdown(waitForJobs);
      }
    } catch (SchedulerException e) {
      LOG.warn("Could not shut the scheduler down: {}", e.getMessage());
    }
  }

  private void removeShutdownHook() {
    Thread hook = shutdownHook;
    if (hook != null && Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down and runs the hook, which finds the service stopped
      }
    }
  }

  /** Blocks until the service has stopped ({@link #stop()} by another thread or a shutdown hook). */
  public void awaitStop() {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits at most {@code timeout}; returns whether the service has stopped. */
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  public boolean isStopped() {
    return stopped.getCount() == 0;
  }

  /** {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  private void requirePipeline(String pipeline) {
    if (config.pipeline(pipeline).isEmpty()) {
      throw new IllegalArgumentException("No pipeline named '" + pipeline + "' in the configuration; the pipelines are "
          + config.pipelines().stream().map(PipelineConfig::name).toList());
    }
  }
}
