package dev.sluice.orchestration.service;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TriggerConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.Trigger;
import dev.sluice.orchestration.PipelineRunner;
import dev.sluice.orchestration.service.RunRecord.Cause;
import dev.sluice.orchestration.service.RunRecord.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
  private final RunHistory history;
  private final ActiveRuns active;
  private final RunCounter counter;
  private final Clock clock = Clock.systemUTC();
  private final Set<String> pendingUpstreamFire = ConcurrentHashMap.newKeySet();
  private volatile Fires fires;

  PipelineRuns(SluiceConfig config, SluiceSession session, ServiceOptions options, RunHistory history,
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

  static boolean continuous(PipelineConfig p) {
    return p.trigger() instanceof TriggerConfig.ProcessingTime;
  }

  void run(String name, Cause cause, int attempt) {
    PipelineConfig p = config.pipeline(name).orElseThrow(() -> new IllegalStateException(
        "The scheduler fired pipeline '" + name + "', which is not in the configuration"));
    if (cause == Cause.UPSTREAM) {
      pendingUpstreamFire.remove(name);
    }
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
      RunRecord r = execute(p, cause, attempt);
      history.add(r);
      RunLog.write(session, config, p, r);
      switch (r.outcome()) {
        case SUCCEEDED -> succeeded(r);
        case FAILED -> failed(r);
        case STOPPED -> LOG.info("Stopped {} at a batch boundary after {} batches ({} rows)", name, r.batches(),
            r.rows());
      }
    } finally {
      active.exit(name);
    }
  }

  private RunRecord execute(PipelineConfig p, Cause cause, int attempt) {
    LOG.info("Running {} ({}{})", p.name(), describe(cause), attempt > 1 ? ", attempt " + attempt : "");
    Instant start = clock.instant();
    String error = null;
    StreamingQuery q = null;
    try {
      q = PipelineRunner.start(session, config, p, trigger(p));
      active.started(p.name(), q);
      q.awaitTermination();
    } catch (RuntimeException e) {
      // Expected failures (bad input, a failed batch) are reported by their message; the engine has
      // already logged the stack trace of a query failure.
      error = e.getMessage() == null ? e.toString() : e.getMessage();
    }
    RunCounter.Counts counts = q == null ? RunCounter.Counts.NONE : counter.take(q.runId());
    Outcome outcome = error != null ? Outcome.FAILED : active.stopping() ? Outcome.STOPPED : Outcome.SUCCEEDED;
    return new RunRecord(p.name(), cause, attempt, start, clock.instant(), outcome, Optional.ofNullable(error),
        counts.batches(), counts.rows());
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
      } else if (pendingUpstreamFire.add(d.name())) {
        fire(d.name(), clock.instant(), Cause.UPSTREAM, 1);
      }
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
      if (cause == Cause.UPSTREAM) {
        pendingUpstreamFire.remove(pipeline);
      }
      if (!active.stopping()) {
        LOG.error("Could not schedule {} ({}): {}", pipeline, describe(cause), e.getMessage());
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
