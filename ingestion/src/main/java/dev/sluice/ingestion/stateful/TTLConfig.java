package dev.sluice.ingestion.stateful;

import java.time.Duration;

/**
 * How long a state value lives after it was last written, in processing time (Spark's {@code TTLConfig}): a value
 * written in a batch at time t is gone for batches at or after t + ttl, and removed from the store then.
 *
 * @param ttlDuration positive, or {@link Duration#ZERO} for no TTL
 */
public record TTLConfig(Duration ttlDuration) {
  /** No TTL: values live until cleared. */
  public static final TTLConfig NONE = new TTLConfig(Duration.ZERO);

  public TTLConfig {
    if (ttlDuration == null || ttlDuration.isNegative()) {
      throw new IllegalArgumentException("TTL duration must be positive (or Duration.ZERO for none), but is "
          + ttlDuration);
    }
  }

  /** Spark's factory. */
  public static TTLConfig of(Duration ttl) {
    return new TTLConfig(ttl);
  }

  public boolean enabled() {
    return !ttlDuration.isZero();
  }
}
