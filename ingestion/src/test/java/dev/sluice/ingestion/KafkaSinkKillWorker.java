package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.ingestion.internal.sink.SinkInterceptor;
import java.nio.file.Path;

/**
 * Child process of {@link KafkaSinkSigKillIT}: one availableNow run from the landing folder into a topic with
 * Kafka transactions. Arguments: folder, bootstrap servers, topic, and optionally {@code STEP:batch} at which the
 * process halts as {@code kill -9} would (no shutdown hooks, no producer close).
 */
public final class KafkaSinkKillWorker {
  private KafkaSinkKillWorker() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    if (args.length > 3) {
      String step = args[3].split(":")[0];
      long batch = Long.parseLong(args[3].split(":")[1]);
      SinkInterceptor.REGISTRY.put("killed", (s, b) -> haltIf(s.name(), b, step, batch));
      BatchInterceptor.REGISTRY.put("killed", (s, b) -> haltIf(s.name(), b, step, batch));
    }
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("json").schema(Landing.SCHEMA).option("maxFilesPerTrigger", "1")
          .load(dir.resolve("landing").toString())
          .selectExpr("CAST(id AS STRING) AS value")
          .writeStream().format("kafka").queryName("killed").option("runnerLeaseTimeout", "300 ms")
          .option("kafka.bootstrap.servers", args[1]).option("topic", args[2])
          .option("deliveryGuarantee", "exactly_once").option("checkpointLocation", dir.resolve("ckpt").toString())
          .trigger(Trigger.availableNow()).start().awaitTermination();
    }
    System.out.println("DONE");
  }

  private static void haltIf(String step, long batch, String haltStep, long haltBatch) {
    if (step.equals(haltStep) && batch == haltBatch) {
      System.out.println("HALT at " + step + " of batch " + batch);
      System.out.flush();
      Runtime.getRuntime().halt(137);
    }
  }
}
