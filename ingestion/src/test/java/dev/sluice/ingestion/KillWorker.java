package dev.sluice.ingestion;

import java.nio.file.Path;

/** Child process of {@link SigKillExactlyOnceIT}: one availableNow run over the landing folder. */
public final class KillWorker {
  private KillWorker() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "1")
          .load(dir.resolve("landing").toString())
          .writeStream().queryName("killed").option("runnerLeaseTimeout", "300 ms")
          .trigger(Trigger.availableNow()).toTable(dir.resolve("out").toString())
          .awaitTermination();
    }
    System.out.println("DONE");
  }
}
