package dev.sluice.ingestion.stateful;

import java.util.Iterator;

/**
 * What a {@link StatefulProcessor} uses to keep state and timers (Spark's {@code StatefulProcessorHandle}). State
 * variables are declared in {@link StatefulProcessor#init}; reads and writes, and the timer calls, apply to the key
 * being processed.
 */
public interface StatefulProcessorHandle {
  /**
   * @throws IllegalArgumentException for a name declared twice, or (outside init) one not declared in init
   */
  <T> ValueState<T> getValueState(String stateName, Encoder<T> valueEncoder, TTLConfig ttlConfig);

  default <T> ValueState<T> getValueState(String stateName, Encoder<T> valueEncoder) {
    return getValueState(stateName, valueEncoder, TTLConfig.NONE);
  }

  <T> ListState<T> getListState(String stateName, Encoder<T> valueEncoder, TTLConfig ttlConfig);

  default <T> ListState<T> getListState(String stateName, Encoder<T> valueEncoder) {
    return getListState(stateName, valueEncoder, TTLConfig.NONE);
  }

  <K, V> MapState<K, V> getMapState(String stateName, Encoder<K> userKeyEncoder, Encoder<V> valueEncoder,
      TTLConfig ttlConfig);

  default <K, V> MapState<K, V> getMapState(String stateName, Encoder<K> userKeyEncoder, Encoder<V> valueEncoder) {
    return getMapState(stateName, userKeyEncoder, valueEncoder, TTLConfig.NONE);
  }

  /**
   * Registers a timer of the current key at {@code expiryTimestampMs} (processing or event time, by the
   * processor's {@link TimeMode}); registering the same time twice keeps one timer.
   *
   * @throws UnsupportedOperationException with {@link TimeMode#NONE}
   */
  void registerTimer(long expiryTimestampMs);

  /** Deletes the current key's timer at {@code expiryTimestampMs}, if any. */
  void deleteTimer(long expiryTimestampMs);

  /** The current key's timers, earliest first. */
  Iterator<Long> listTimers();

  /** Removes the current key's value of a state variable. */
  void deleteIfExists(String stateName);
}
