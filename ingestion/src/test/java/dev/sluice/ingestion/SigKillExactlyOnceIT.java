package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM with SIGKILL at random moments of a 200-file availableNow run, 20 times,
 * restarting each time; at the end the table holds every input row exactly once.
 *
 * <p>Each kill waits for the worker to commit a random 1–5 more table versions and then a random
 * few milliseconds, so that it lands mid-run at a random step of a batch however fast the machine
 * is (a fixed wall-clock delay let a fast machine finish all 200 files within a few rounds).
 */
class SigKillExactlyOnceIT {
  @TempDir Path dir;

  private Process start() throws Exception {
    return new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        KillWorker.class.getName(), dir.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("worker.log").toFile()))
        .start();
  }

  private long commits() throws Exception {
    Path log = dir.resolve("out").resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      return 0;
    }
    try (var files = Files.list(log)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).count();
    }
  }

  @Test
  void exactlyOnceAcrossTwentyKills() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 200, 5);
    Random random = new Random(20261130);
    int killedMidRun = 0;
    for (int round = 0; round < 20; round++) {
      long target = commits() + 1 + random.nextInt(5);
      Process p = start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (p.isAlive() && commits() < target && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      if (!p.waitFor(random.nextInt(40), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        killedMidRun++;
      }
      // a killed runner leaves its lease behind: it expires after 300 ms
      Thread.sleep(350);
    }
    System.out.printf("SigKillExactlyOnceIT: %d of 20 rounds killed mid-run, %d table versions before the last run%n",
        killedMidRun, commits());
    Process last = start();
    assertThat(last.waitFor(180, TimeUnit.SECONDS)).isTrue();
    assertThat(last.exitValue()).as(Files.readString(dir.resolve("worker.log"))).isZero();
    assertThat(killedMidRun).as("rounds killed before finishing").isGreaterThanOrEqualTo(15);
    try (SluiceSession session = SluiceSession.create()) {
      assertThat(Landing.ids(session.table(dir.resolve("out").toString()))).containsExactlyElementsOf(Landing.range(0, 1000));
    }
  }
}
