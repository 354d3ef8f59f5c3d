package dev.sluice.ingestion;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test sets it: processing-time timeouts and timers fire exactly when told. */
final class ManualClock extends Clock {
  private final AtomicLong millis;

  ManualClock(long startMs) {
    this.millis = new AtomicLong(startMs);
  }

  void set(long ms) {
    millis.set(ms);
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
