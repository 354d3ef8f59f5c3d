package dev.sluice.ingestion.stateful;

/**
 * When the state of a key of {@code mapGroupsWithState} / {@code flatMapGroupsWithState} times out (Spark's
 * {@code GroupStateTimeout}): never, when the batch's processing time passes {@code setTimeoutDuration}, or when
 * the watermark passes {@code setTimeoutTimestamp}.
 */
public enum GroupStateTimeout {
  NO_TIMEOUT,
  PROCESSING_TIME_TIMEOUT,
  EVENT_TIME_TIMEOUT;

  /** Spark's spelling. */
  public static GroupStateTimeout NoTimeout() {
    return NO_TIMEOUT;
  }

  /** Spark's spelling. */
  public static GroupStateTimeout ProcessingTimeTimeout() {
    return PROCESSING_TIME_TIMEOUT;
  }

  /** Spark's spelling. */
  public static GroupStateTimeout EventTimeTimeout() {
    return EVENT_TIME_TIMEOUT;
  }

  /** Parses {@code none}, {@code processing_time} or {@code event_time} (YAML), ignoring case. */
  public static GroupStateTimeout of(String name) {
    return switch (name.trim().toLowerCase(java.util.Locale.ROOT).replace("-", "_")) {
      case "none", "no_timeout", "notimeout" -> NO_TIMEOUT;
      case "processing_time", "processingtime", "processing_time_timeout", "processingtimetimeout" ->
          PROCESSING_TIME_TIMEOUT;
      case "event_time", "eventtime", "event_time_timeout", "eventtimetimeout" -> EVENT_TIME_TIMEOUT;
      default -> throw new IllegalArgumentException("Unknown timeout '" + name + "'; use none, processing_time or"
          + " event_time");
    };
  }
}
