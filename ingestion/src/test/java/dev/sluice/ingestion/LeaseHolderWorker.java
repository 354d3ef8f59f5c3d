package dev.sluice.ingestion;

import java.nio.file.Path;
import java.time.Duration;

/** Child process of {@link RunnerLeaseTest}: keeps a processing-time query (and so its runner lease) alive. */
public final class LeaseHolderWorker {
  private LeaseHolderWorker() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    try (SluiceSession session = SluiceSession.create()) {
      RunnerLeaseTest.query(session, dir, Trigger.processingTime(Duration.ofMillis(100)), "1 hour", "0 ms");
      System.out.println("STARTED");
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
