package dev.sluice.ingestion;

import java.nio.file.Path;

/**
 * Child process of {@link SmallHeapQueryTest}: one availableNow query over all landing files in a single batch,
 * through a filter and a projection into a Delta table, in the small heap the test gives it.
 */
public final class SmallHeapWorker {
  private SmallHeapWorker() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("json").schema(SmallHeapQueryTest.SCHEMA).option("maxFilesPerTrigger", "10000")
          .load(dir.resolve("landing").toString())
          .filter("c0 IS NOT NULL")
          .select("c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "concat(c0, c7) AS c8")
          .writeStream().queryName("small-heap").trigger(Trigger.availableNow()).toTable(dir.resolve("out").toString())
          .awaitTermination();
    }
    System.out.println("DONE");
  }
}
