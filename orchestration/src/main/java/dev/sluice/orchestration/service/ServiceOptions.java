package dev.sluice.orchestration.service;

import java.time.Duration;
import java.util.Objects;

/**
 * How the service runs: the retry policy of every pipeline (the config has no retry keys yet), how long
 * {@link SluiceService#stop()} waits for running queries, the worker threads for scheduled runs, the run
 * records kept per pipeline, and where the Quartz scheduler comes from.
 *
 * @param threads worker threads for availableNow runs; each continuous pipeline gets one more
 */
public record ServiceOptions(RetryPolicy retry, Duration stopTimeout, int threads, int historyLimit,
    SchedulerProvider scheduler) {

  public ServiceOptions {
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(stopTimeout, "stopTimeout");
    Objects.requireNonNull(scheduler, "scheduler");
    if (threads < 1) {
      throw new IllegalArgumentException("The service needs at least 1 worker thread, got " + threads);
    }
    if (historyLimit < 1) {
      throw new IllegalArgumentException("The service must keep at least 1 run record per pipeline, got "
          + historyLimit);
    }
  }

  /** {@link RetryPolicy#defaults()}, a 60 s stop timeout, 4 threads, 100 records per pipeline, RAM job store. */
  public static ServiceOptions defaults() {
    return new ServiceOptions(RetryPolicy.defaults(), Duration.ofSeconds(60), 4, 100, SchedulerProvider.ramJobStore());
  }

  public ServiceOptions withRetry(RetryPolicy value) {
    return new ServiceOptions(value, stopTimeout, threads, historyLimit, scheduler);
  }

  public ServiceOptions withStopTimeout(Duration value) {
    return new ServiceOptions(retry, value, threads, historyLimit, scheduler);
  }

  public ServiceOptions withThreads(int value) {
    return new ServiceOptions(retry, stopTimeout, value, historyLimit, scheduler);
  }

  public ServiceOptions withHistoryLimit(int value) {
    return new ServiceOptions(retry, stopTimeout, threads, value, scheduler);
  }

  public ServiceOptions withScheduler(SchedulerProvider value) {
    return new ServiceOptions(retry, stopTimeout, threads, historyLimit, value);
  }
}
