package dev.sluice.ingestion.stateful;

/** The timer that fired, given to {@link StatefulProcessor#handleExpiredTimer}. */
public interface ExpiredTimerInfo {
  /** The time the timer was registered for (epoch ms). */
  long getExpiryTimeInMs();
}
