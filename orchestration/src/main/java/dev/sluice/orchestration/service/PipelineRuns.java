package dev.sluice.orchestration.service;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TriggerConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.ingestion.internal.checkpoint.QueryAlreadyActiveException;
import dev.sluice.orchestration.PipelineRunner;
import dev.sluice.orchestration.service.RunRecord.Cause;
import dev.sluice.orchestration.service.RunRecord.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pipeline when its job fires, records the run, and decides what follows: a retry after a failure,
 * the downstream pipelines after a success.
 *
 * <p>The {@code after} rule and the retries are as {@link SluiceService} documents them.
 */
final class PipelineRuns {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceService.class);

  private final SluiceConfig config;
  private final SluiceSession session;
  private final ServiceOptions options;
  /** Recovery fires wait this long between tries for a dead runner's lease to expire. */
  static final Duration LEASE_WAIT = Duration.ofSeconds(1);
  /** At most this many waits (the engine's default lease timeout is 10 s). */
  static final int MAX_LEASE_WAITS = 120;

  /** One fire of a pipeline's job as the trigger described it. */
  record Fire(String pipeline, Cause cause, int attempt, int leaseWaits, Optional<Instant> scheduledFor) {}

  private final RunStore history;
  private final ActiveRuns active;
  private final RunCounter counter;
  private final Clock clock = Clock.systemUTC();
  private volatile Fires fires;
  private volatile String node = RunRecord.LOCAL_NODE;
  private volatile boolean clustered;

  PipelineRuns(SluiceConfig config, SluiceSession session, ServiceOptions options, RunStore history,
      ActiveRuns active, RunCounter counter) {
    this.config = config;
    this.session = session;
    this.options = options;
    this.history = history;
    this.active = active;
    this.counter = counter;
  }

  void fires(Fires value) {
    this.fires = value;
  }

  /** Runs on a cluster store as node {@code value} (the name its run records give). */
  void clusterNode(String value) {
    this.node = value;
    this.clustered = true;
  }

  String node() {
    return node;
  }

  static boolean continuous(PipelineConfig p) {
    return p.trigger() instanceof TriggerConfig.ProcessingTime;
  }

  void run(Fire fire) {
    String name = fire.pipeline();
    Cause cause = fire.cause();
    PipelineConfig p = config.pipeline(name).orElseThrow(() -> new IllegalStateException(
        "The scheduler fired pipeline '" + name + "', which is not in the configuration"));
    if (cause != Cause.MANUAL && cause != Cause.CONTINUOUS) {
      Optional<String> blocked = failedUpstream(p);
      if (blocked.isPresent()) {
        LOG.info("Not running {} ({}): the latest run of its upstream {} did not succeed", name, describe(cause),
            blocked.get());
        return;
      }
    }
    if (!active.enter()) {
      return;
    }
    try {
      Optional<RunRecord> ran = execute(p, fire);
      if (ran.isEmpty()) {
        return;
      }
      RunRecord r = ran.get();
      history.add(r);
      RunLog.write(session, config, p, r);
      switch (r.outcome()) {
        case SUCCEEDED -> succeeded(r);
        case FAILED -> failed(r);
        case STOPPED -> stopped(r);
      }
    } finally {
      active.exit(name);
    }
  }

  /** The run's record; empty when another runner holds the query's lease (nothing ran, nothing to record). */
  private Optional<RunRecord> execute(PipelineConfig p, Fire fire) {
    Cause cause = fire.cause();
    int attempt = fire.attempt();
    LOG.info("Running {} ({}{})", p.name(), describe(cause), attempt > 1 ? ", attempt " + attempt : "");
    Instant start = clock.instant();
    String error = null;
    StreamingQuery q = null;
    try {
      q = PipelineRunner.start(session, config, p, trigger(p));
      active.started(p.name(), q);
      q.awaitTermination();
    } catch (RuntimeException e) {
      Optional<QueryAlreadyActiveException> held = leaseHeldBy(e);
      if (held.isPresent()) {
        leaseHeld(fire, held.get());
        return Optional.empty();
      }
      // Expected failures (bad input, a failed batch) are reported by their message; the engine has
      // already logged the stack trace of a query failure.
      error = e.getMessage() == null ? e.toString() : e.getMessage();
    }
    RunCounter.Counts counts = q == null ? RunCounter.Counts.NONE : counter.take(q.runId());
    Outcome outcome = error != null ? Outcome.FAILED : active.stopping() ? Outcome.STOPPED : Outcome.SUCCEEDED;
    return Optional.of(new RunRecord(p.name(), cause, attempt, start, clock.instant(), outcome,
        Optional.ofNullable(error), counts.batches(), counts.rows(), counts.ledger(), node, fire.scheduledFor()));
  }

  private static Optional<QueryAlreadyActiveException> leaseHeldBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof QueryAlreadyActiveException held) {
        return Optional.of(held);
      }
    }
    return Optional.empty();
  }

  /**
   * The query's runner lease is held by another run: a run of a dead node (its heartbeat has not yet expired), or a
   * runner outside this service ({@code sluice run}). A recovery fire waits for the lease, since the dead node's run
   * must be finished; any other fire is skipped, as a fire is while the pipeline runs on this node.
   */
  private void leaseHeld(Fire fire, QueryAlreadyActiveException held) {
    if (fire.cause() == Cause.RECOVERY && fire.leaseWaits() < MAX_LEASE_WAITS && !active.stopping()) {
      LOG.info("Recovering {}: waiting for the dead runner's lease to expire ({})", fire.pipeline(), held.getMessage());
      try {
        fires.once(fire.pipeline(), clock.instant().plus(LEASE_WAIT), Cause.RECOVERY, fire.attempt(),
            fire.leaseWaits() + 1);
      } catch (SchedulerException e) {
        LOG.error("Could not schedule the recovery of {}: {}", fire.pipeline(), e.getMessage());
      }
    } else {
      LOG.warn("Not running {} ({}): {}", fire.pipeline(), describe(fire.cause()), held.getMessage());
    }
  }

  private static Trigger trigger(PipelineConfig p) {
    if (p.trigger() instanceof TriggerConfig.ProcessingTime t) {
      return Trigger.processingTime(t.interval().duration());
    }
    return p.trigger() instanceof TriggerConfig.Once ? Trigger.once() : Trigger.availableNow();
  }

  private void succeeded(RunRecord r) {
    LOG.info("{} succeeded in {} ms: {} batches, {} rows", r.pipeline(), r.duration().toMillis(), r.batches(),
        r.rows());
    for (PipelineConfig d : config.pipelines()) {
      if (!d.after().contains(r.pipeline()) || continuous(d)) {
        continue;
      }
      Optional<String> blocked = failedUpstream(d);
      if (blocked.isPresent()) {
        LOG.info("Not running {} after {}: the latest run of its upstream {} did not succeed", d.name(),
            r.pipeline(), blocked.get());
      } else {
        fireAfterUpstream(d.name());
      }
    }
  }

  /**
   * A run this node's stop ended at a batch boundary: with a cluster store another node finishes it (this node is in
   * standby and takes no more fires; with no other node up, the first to start does).
   */
  private void stopped(RunRecord r) {
    LOG.info("Stopped {} at a batch boundary after {} batches ({} rows)", r.pipeline(), r.batches(), r.rows());
    if (clustered) {
      LOG.info("Handing {} over to another node of the cluster", r.pipeline());
      fire(r.pipeline(), clock.instant(), r.cause() == Cause.CONTINUOUS ? Cause.CONTINUOUS : Cause.RECOVERY,
          r.attempt());
    }
  }

  private void failed(RunRecord r) {
    RetryPolicy retry = options.retry();
    if (retry.retries(r.attempt()) && !active.stopping()) {
      Duration wait = retry.backoff(r.attempt());
      LOG.warn("{} failed (attempt {} of {}); retrying in {} ms: {}", r.pipeline(), r.attempt(), retry.attempts(),
          wait.toMillis(), r.error().orElse(""));
      fire(r.pipeline(), clock.instant().plus(wait), r.cause() == Cause.CONTINUOUS ? Cause.CONTINUOUS : Cause.RETRY,
          r.attempt() + 1);
    } else {
      LOG.error("{} failed (attempt {} of {}); giving up: {}", r.pipeline(), r.attempt(),
          retry.attempts(), r.error().orElse(""));
    }
  }

  private void fire(String pipeline, Instant at, Cause cause, int attempt) {
    try {
      fires.once(pipeline, at, cause, attempt);
    } catch (SchedulerException e) {
      if (!active.stopping() || clustered) {
        LOG.error("Could not schedule {} ({}): {}", pipeline, describe(cause), e.getMessage());
      }
    }
  }

  private void fireAfterUpstream(String pipeline) {
    try {
      fires.upstream(pipeline);
    } catch (SchedulerException e) {
      if (!active.stopping() || clustered) {
        LOG.error("Could not schedule {} (upstream): {}", pipeline, e.getMessage());
      }
    }
  }

  /** The first {@code after} upstream whose latest recorded run did not succeed. */
  Optional<String> failedUpstream(PipelineConfig p) {
    return p.after().stream()
        .filter(u -> history.last(u).map(last -> !last.succeeded()).orElse(false))
        .findFirst();
  }

  private static String describe(Cause cause) {
    return cause.name().toLowerCase(java.util.Locale.ROOT);
  }
}
