package dev.sluice.ingestion.stateful;

/** Which clock a {@code transformWithState} processor's timers use (Spark's {@code TimeMode}). */
public enum TimeMode {
  NONE,
  PROCESSING_TIME,
  EVENT_TIME;

  /** Spark's spelling. */
  public static TimeMode None() {
    return NONE;
  }

  /** Spark's spelling. */
  public static TimeMode ProcessingTime() {
    return PROCESSING_TIME;
  }

  /** Spark's spelling. */
  public static TimeMode EventTime() {
    return EVENT_TIME;
  }

  /** Parses {@code none}, {@code processing_time} or {@code event_time}, ignoring case. */
  public static TimeMode of(String name) {
    return switch (GroupStateTimeout.of(name)) {
      case NO_TIMEOUT -> NONE;
      case PROCESSING_TIME_TIMEOUT -> PROCESSING_TIME;
      case EVENT_TIME_TIMEOUT -> EVENT_TIME;
    };
  }
}
