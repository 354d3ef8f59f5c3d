package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once of the Kafka source into Delta under {@code kill -9}: child JVMs run availableNow from a 3-partition
 * topic (120 offsets a batch) and are SIGKILLed at random moments after their first batch is planned, with more
 * records produced between kills; a last run finishes. The table holds every produced id once, and every restart
 * after a kill started at once: the killed runner's lease (fresh heartbeat, 60 s timeout) was taken over because its
 * pid on this host is gone, not after it expired.
 */
class KafkaSourceSigKillIT {
  private static final int KILLS = 10;
  private static final int FIRST = 2_400;
  private static final int PER_ROUND = 300;
  /** JVM start, session, lease and the first batch's planning; far below the lease timeout of 60 s. */
  private static final long START_BOUND_MS = 20_000;
  private static final ObjectMapper JSON = new ObjectMapper();
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  @TempDir Path dir;
  private long produced;

  private void produce(int n) {
    broker.send("events", null, null, LongStream.range(produced, produced + n)
        .mapToObj(id -> "{\"id\":" + id + ",\"payload\":\"event " + id + "\"}").toList());
    produced += n;
  }

  private Process start(Path log) throws Exception {
    return new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        KafkaSourceKillWorker.class.getName(), dir.toString(), broker.bootstrap(), "events")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** Waits until the child prints RUNNING or exits; true if it is running. */
  private static boolean awaitRunning(Process p, Path log) throws Exception {
    long deadline = System.currentTimeMillis() + START_BOUND_MS;
    while (System.currentTimeMillis() < deadline) {
      if (Files.readString(log).contains("RUNNING")) {
        return true;
      }
      if (p.waitFor(20, TimeUnit.MILLISECONDS)) {
        return Files.readString(log).contains("RUNNING");
      }
    }
    throw new AssertionError("No batch planned within " + START_BOUND_MS + " ms of start: " + Files.readString(log));
  }

  @Test
  void everyProducedIdLandsOnceAcrossKillsAndEachRestartTakesTheLeaseAtOnce() throws Exception {
    broker.createTopic("events", 3);
    produce(FIRST);
    long seed = Long.getLong("sluice.kafka.kill.seed", System.nanoTime());
    System.out.println("KafkaSourceSigKillIT seed " + seed + " (-Dsluice.kafka.kill.seed to repeat)");
    try (SluiceSession session = SluiceSession.create()) {
      killAndRestart(session, new Random(seed));
    }
  }

  private void killAndRestart(SluiceSession session, Random random) throws Exception {
    QueryCheckpoint checkpoint = new QueryCheckpoint(session.location(dir.resolve("ckpt").toString()));
    List<Long> startMillis = new ArrayList<>();
    int kills = 0;
    int midBatch = 0;
    int completed = 0;
    for (int round = 0; kills < KILLS; round++) {
      Path log = dir.resolve("run-" + round + ".log");
      long started = System.nanoTime();
      Process p = start(log);
      boolean running = awaitRunning(p, log);
      startMillis.add((System.nanoTime() - started) / 1_000_000);
      if (!p.waitFor(random.nextInt(1_500), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();   // SIGKILL: no shutdown hook, no lease release
        kills++;
        JsonNode lease = JSON.readTree(dir.resolve("ckpt/runner").toFile());
        assertThat(lease.path("pid").asLong()).as("the lease left behind names the killed child").isEqualTo(p.pid());
        OptionalLong planned = checkpoint.latestOffsetsBatch();
        OptionalLong committed = checkpoint.latestCommitBatch();
        if (planned.isPresent() && (committed.isEmpty() || committed.getAsLong() < planned.getAsLong())) {
          midBatch++;
        }
      } else {
        assertThat(p.exitValue()).as("round %d (running %s): %s", round, running, Files.readString(log)).isZero();
        completed++;
      }
      produce(PER_ROUND);
    }
    Path lastLog = dir.resolve("last.log");
    Process last = start(lastLog);
    assertThat(last.waitFor(60, TimeUnit.SECONDS)).as("the last run ends").isTrue();
    assertThat(last.exitValue()).as(Files.readString(lastLog)).isZero();
    for (Path log : Files.list(dir).filter(f -> f.toString().endsWith(".log")).toList()) {
      assertThat(Files.readString(log)).as(log.toString()).doesNotContain("already running");
    }
    System.out.printf("KafkaSourceSigKillIT: %d kills (%d mid-batch), %d runs completed, %d batches, %d ids;"
        + " start to first batch %s ms%n", kills, midBatch, completed, checkpoint.latestCommitBatch().orElse(-1) + 1,
        produced, startMillis.stream().sorted().toList());
    assertThat(Landing.ids(session.table(dir.resolve("out").toString())))
        .containsExactlyElementsOf(Landing.range(0, produced));
  }
}
