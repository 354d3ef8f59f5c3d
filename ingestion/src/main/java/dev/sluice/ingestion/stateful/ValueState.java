package dev.sluice.ingestion.stateful;

import java.util.Optional;

/** One value per key (Spark's {@code ValueState}); reads and writes apply to the key being processed. */
public interface ValueState<S> {
  boolean exists();

  /** The value, or null when there is none (or it expired). */
  S get();

  default Optional<S> getOption() {
    return Optional.ofNullable(get());
  }

  /**
   * @throws IllegalArgumentException for null (use {@link #clear()})
   */
  void update(S value);

  void clear();
}
