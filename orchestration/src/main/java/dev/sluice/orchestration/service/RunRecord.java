package dev.sluice.orchestration.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One run of a pipeline by the service: when it ran, why, how it ended and what it did.
 *
 * @param attempt 1 for the first try, 2 for the first retry, …
 * @param error the failure's message (no stack trace) when {@code outcome} is {@link Outcome#FAILED}
 * @param batches micro-batches the run committed
 * @param rows input rows of those batches
 */
public record RunRecord(String pipeline, Cause cause, int attempt, Instant start, Instant end, Outcome outcome,
    Optional<String> error, long batches, long rows) {

  /** Why the service started the run. */
  public enum Cause {
    /** The pipeline's own {@code schedule} fired. */
    SCHEDULE,
    /** An upstream named in the pipeline's {@code after} succeeded. */
    UPSTREAM,
    /** The previous attempt failed and the retry policy allowed another. */
    RETRY,
    /** {@link SluiceService#trigger(String)} asked for it. */
    MANUAL,
    /** A {@code processing_time} pipeline started (or restarted) as a continuous query. */
    CONTINUOUS
  }

  /** How the run ended. */
  public enum Outcome {
    SUCCEEDED,
    FAILED,
    /** The service stopped the query at a batch boundary while it ran. */
    STOPPED
  }

  public RunRecord {
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(error, "error");
  }

  public boolean succeeded() {
    return outcome == Outcome.SUCCEEDED;
  }

  public Duration duration() {
    return Duration.between(start, end);
  }
}
