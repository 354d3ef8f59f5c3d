package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.Durations;
import dev.sluice.ingestion.stateful.GroupState;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import java.util.NoSuchElementException;
import java.util.Optional;

/** One key's {@link GroupState} for one call, with Spark's {@code GroupStateImpl} rules. */
final class GroupStateImpl<S> implements GroupState<S> {
  static final long NO_TIMESTAMP = -1;

  private final GroupStateTimeout timeout;
  private final long batchTimeMs;
  private final long watermarkMs;
  private final boolean watermarkPresent;
  private final boolean timedOut;
  private S value;
  private boolean updated;
  private boolean removed;
  private long timeoutMs = NO_TIMESTAMP;

  GroupStateImpl(S value, GroupStateTimeout timeout, long batchTimeMs, long watermarkMs, boolean watermarkPresent,
      boolean timedOut) {
    this.value = value;
    this.timeout = timeout;
    this.batchTimeMs = batchTimeMs;
    this.watermarkMs = watermarkMs;
    this.watermarkPresent = watermarkPresent;
    this.timedOut = timedOut;
  }

  @Override
  public boolean exists() {
    return value != null;
  }

  @Override
  public S get() {
    if (value == null) {
      throw new NoSuchElementException("State is either not defined or has already been removed; check"
          + " state.exists() or use state.getOption()");
    }
    return value;
  }

  @Override
  public Optional<S> getOption() {
    return Optional.ofNullable(value);
  }

  @Override
  public void update(S newState) {
    if (newState == null) {
      throw new IllegalArgumentException("GroupState.update(null) is not allowed; use state.remove() to drop the"
          + " state of the key");
    }
    value = newState;
    updated = true;
    removed = false;
  }

  @Override
  public void remove() {
    value = null;
    removed = true;
    updated = false;
  }

  @Override
  public boolean hasTimedOut() {
    return timedOut;
  }

  @Override
  public void setTimeoutDuration(long durationMs) {
    if (timeout != GroupStateTimeout.PROCESSING_TIME_TIMEOUT) {
      throw new UnsupportedOperationException("setTimeoutDuration needs ProcessingTimeTimeout, but the operator was"
          + " declared with " + timeout + "; pass GroupStateTimeout.ProcessingTimeTimeout() to"
          + " [flat]mapGroupsWithState");
    }
    if (durationMs <= 0) {
      throw new IllegalArgumentException("Timeout duration must be positive, but is " + durationMs + " ms");
    }
    timeoutMs = batchTimeMs + durationMs;
  }

  @Override
  public void setTimeoutDuration(String duration) {
    setTimeoutDuration(Durations.parse(duration, "timeout duration").toMillis());
  }

  @Override
  public void setTimeoutTimestamp(long timestampMs) {
    if (timeout != GroupStateTimeout.EVENT_TIME_TIMEOUT) {
      throw new UnsupportedOperationException("setTimeoutTimestamp needs EventTimeTimeout, but the operator was"
          + " declared with " + timeout + "; pass GroupStateTimeout.EventTimeTimeout() to [flat]mapGroupsWithState");
    }
    if (watermarkPresent && timestampMs < watermarkMs) {
      throw new IllegalArgumentException("Timeout timestamp (" + timestampMs + ") cannot be earlier than the current"
          + " watermark (" + watermarkMs + ")");
    }
    timeoutMs = timestampMs;
  }

  @Override
  public long getCurrentWatermarkMs() {
    if (!watermarkPresent) {
      throw new UnsupportedOperationException("Cannot get the event-time watermark: the query has none. Call"
          + " withWatermark(eventTimeColumn, delay) before groupByKey");
    }
    return watermarkMs;
  }

  @Override
  public long getCurrentProcessingTimeMs() {
    return batchTimeMs;
  }

  S value() {
    return value;
  }

  boolean updated() {
    return updated;
  }

  boolean removed() {
    return removed;
  }

  long timeoutMs() {
    return timeoutMs;
  }

  @Override
  public String toString() {
    return "GroupState(" + (value == null ? "<undefined>" : value) + ")";
  }
}
