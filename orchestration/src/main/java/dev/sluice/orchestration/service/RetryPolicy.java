package dev.sluice.orchestration.service;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how soon the service retries a failed run: at most {@code attempts} tries in all, waiting
 * {@code initialBackoff × multiplier^(n-1)} (capped at {@code maxBackoff}) after the n-th failure.
 */
public record RetryPolicy(int attempts, Duration initialBackoff, double multiplier, Duration maxBackoff) {

  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (attempts < 1) {
      throw new IllegalArgumentException("Retry attempts must be at least 1 (one try, no retries), got " + attempts);
    }
    if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
      throw new IllegalArgumentException("Retry backoffs must not be negative, got " + initialBackoff + " and "
          + maxBackoff);
    }
    if (multiplier < 1) {
      throw new IllegalArgumentException("The retry backoff multiplier must be at least 1, got " + multiplier);
    }
  }

  /** 3 attempts, waiting 1 s after the first failure and 2 s after the second (at most 5 minutes). */
  public static RetryPolicy defaults() {
    return new RetryPolicy(3, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5));
  }

  /** One try, no retries. */
  public static RetryPolicy none() {
    return new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO);
  }

  /** Whether a run that failed on {@code attempt} gets another try. */
  public boolean retries(int attempt) {
    return attempt < attempts;
  }

  /** How long to wait after the {@code failedAttempt}-th failure before the next try. */
  public Duration backoff(int failedAttempt) {
    double millis = initialBackoff.toMillis() * Math.pow(multiplier, Math.max(0, failedAttempt - 1));
    return millis >= maxBackoff.toMillis() ? maxBackoff : Duration.ofMillis((long) millis);
  }
}
