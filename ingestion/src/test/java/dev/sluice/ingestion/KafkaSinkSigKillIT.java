package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM writing to Kafka with transactions: halted (as kill -9) between sending a batch and committing
 * its transaction, halted between the transaction commit and {@code commits/N}, then SIGKILLed at random moments;
 * a last run finishes. A {@code read_committed} consumer sees every row exactly once.
 */
class KafkaSinkSigKillIT {
  @RegisterExtension static final KraftBroker broker = KraftBroker.perClass();
  @TempDir Path dir;

  private Process start(String... extra) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin"
        + File.separator + "java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        KafkaSinkKillWorker.class.getName(), dir.toString(), broker.bootstrap(), "out"));
    cmd.addAll(List.of(extra));
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("worker.log").toFile())).start();
  }

  private void runUntilHalted(String at) throws Exception {
    Process p = start(at);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve("worker.log"))).isEqualTo(137);
    Thread.sleep(350); // the halted runner's lease expires after 300 ms
  }

  @Test
  void readCommittedSeesEveryRowOnceAcrossKills() throws Exception {
    broker.createTopic("out", 2);
    Landing.write(dir.resolve("landing"), 0, 12, 10);
    runUntilHalted("DATA_WRITTEN:1"); // batch 1 sent, its transaction open
    runUntilHalted("AFTER_SINK:3"); // batch 3's transaction committed, commits/3 not written
    Random random = new Random(20261202);
    for (int round = 0; round < 3; round++) {
      Process p = start();
      if (!p.waitFor(1500 + random.nextInt(1500), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
      }
      Thread.sleep(350);
    }
    Process last = start();
    assertThat(last.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String log = Files.readString(dir.resolve("worker.log"));
    assertThat(last.exitValue()).as(log).isZero();
    assertThat(log).contains("HALT at DATA_WRITTEN of batch 1", "HALT at AFTER_SINK of batch 3");
    List<Long> ids = broker.readCommitted("out").stream()
        .map(r -> Long.parseLong(new String(r.value(), StandardCharsets.UTF_8))).sorted().toList();
    assertThat(ids).containsExactlyElementsOf(Landing.range(0, 120));
    // the halted attempt of batch 1 is in the topic, aborted
    assertThat(broker.readUncommitted("out").size()).isGreaterThanOrEqualTo(130);
  }
}
