package dev.sluice.orchestration.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One run of a pipeline by the service: when it ran, why, how it ended and what it did.
 *
 * @param attempt 1 for the first try, 2 for the first retry, …
 * @param error the failure's message (no stack trace) when {@code outcome} is {@link Outcome#FAILED}
 * @param batches micro-batches the run committed
 * @param rows input rows of those batches
 * @param ledger the row ledger summed over those batches ({@code rowsIn}, {@code written}, {@code quarantined}, …;
 *     empty when the pipeline reports none)
 * @param node the service node that ran it: the cluster's instance id, or {@link #LOCAL_NODE} without a cluster
 * @param scheduledFor when the trigger was due (the fire time Quartz scheduled), if known
 */
public record RunRecord(String pipeline, Cause cause, int attempt, Instant start, Instant end, Outcome outcome,
    Optional<String> error, long batches, long rows, Map<String, Long> ledger, String node,
    Optional<Instant> scheduledFor) {
  /** The node name of a service that runs without a cluster store. */
  public static final String LOCAL_NODE = "local";

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
    CONTINUOUS,
    /**
     * The node running the pipeline died or stopped mid-run (cluster store only); another node fired it again, and
     * the run resumed from the checkpoint (after a dead runner's lease expired).
     */
    RECOVERY
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
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(scheduledFor, "scheduledFor");
    ledger = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(ledger));
  }

  /** A run on the local node without a ledger or schedule time. */
  public RunRecord(String pipeline, Cause cause, int attempt, Instant start, Instant end, Outcome outcome,
      Optional<String> error, long batches, long rows) {
    this(pipeline, cause, attempt, start, end, outcome, error, batches, rows, Map.of(), LOCAL_NODE, Optional.empty());
  }

  public boolean succeeded() {
    return outcome == Outcome.SUCCEEDED;
  }

  public Duration duration() {
    return Duration.between(start, end);
  }
}
