package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Child process of {@link KafkaSourceSigKillIT}: one availableNow run from a Kafka topic of JSON values into a Delta
 * table, a few offsets per batch. Arguments: folder, bootstrap servers, topic. Prints {@code RUNNING} once its first
 * batch is planned, that is once it holds the runner lease, so that the parent knows when a kill lands mid-run.
 */
public final class KafkaSourceKillWorker {
  static final String QUERY = "kafka-killed";
  /** Long enough that a restart which had to wait for the lease to expire would fail the parent's start-up bound. */
  static final String LEASE_TIMEOUT = "60 s";

  private KafkaSourceKillWorker() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    AtomicBoolean announced = new AtomicBoolean();
    BatchInterceptor.REGISTRY.put(QUERY, (step, batch) -> {
      if (announced.compareAndSet(false, true)) {
        System.out.println("RUNNING batch " + batch);
        System.out.flush();
      }
    });
    try (SluiceSession session = SluiceSession.create()) {
      session.readStream().format("kafka").option("kafka.bootstrap.servers", args[1]).option("subscribe", args[2])
          .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "120").load()
          .selectExpr("CAST(get_json_object(CAST(value AS STRING), '$.id') AS LONG) AS id", "partition", "offset")
          .writeStream().queryName(QUERY).option("runnerLeaseTimeout", LEASE_TIMEOUT)
          .option("checkpointLocation", dir.resolve("ckpt").toString())
          .trigger(Trigger.availableNow()).toTable(dir.resolve("out").toString())
          .awaitTermination();
    }
    System.out.println("DONE");
  }
}
