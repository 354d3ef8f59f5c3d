package dev.sluice.ingestion.stateful;

import java.time.Duration;
import java.util.Optional;

/**
 * The state of one key given to a {@code mapGroupsWithState} / {@code flatMapGroupsWithState} function, with
 * Spark's {@code GroupState} contract. Changes are kept when the function returns. The timeout is reset at
 * every call: set it again on each call that should keep one.
 *
 * @param <S> the state type
 */
public interface GroupState<S> {
  /** Whether the key has state. */
  boolean exists();

  /**
   * @throws java.util.NoSuchElementException when there is no state (check {@link #exists()} first)
   */
  S get();

  Optional<S> getOption();

  /**
   * @throws IllegalArgumentException for null (use {@link #remove()})
   */
  void update(S newState);

  /** Removes the state; a timeout set in the same call is still kept. */
  void remove();

  /** Whether this call is because the key timed out (then there are no input rows). */
  boolean hasTimedOut();

  /**
   * With {@code ProcessingTimeTimeout}: time out when the processing time passes the batch's time plus
   * {@code durationMs}, unless the key gets data before.
   *
   * @throws UnsupportedOperationException with another timeout
   * @throws IllegalArgumentException for a duration ≤ 0
   */
  void setTimeoutDuration(long durationMs);

  /** {@link #setTimeoutDuration(long)} with a text duration, e.g. {@code "10 minutes"}. */
  void setTimeoutDuration(String duration);

  /** {@link #setTimeoutDuration(long)} with a {@link Duration}. */
  default void setTimeoutDuration(Duration duration) {
    setTimeoutDuration(duration.toMillis());
  }

  /**
   * With {@code EventTimeTimeout}: time out when the watermark passes {@code timestampMs}.
   *
   * @throws UnsupportedOperationException with another timeout
   * @throws IllegalArgumentException for a timestamp before the current watermark
   */
  void setTimeoutTimestamp(long timestampMs);

  /**
   * The watermark in force for this batch (epoch ms).
   *
   * @throws UnsupportedOperationException when the query has no watermark
   */
  long getCurrentWatermarkMs();

  /** The batch's processing time (epoch ms): the same for every key of a batch. */
  long getCurrentProcessingTimeMs();
}
