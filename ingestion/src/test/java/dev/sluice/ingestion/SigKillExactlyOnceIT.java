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

  @Test
  void exactlyOnceAcrossTwentyKills() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 200, 5);
    Random random = new Random(20261130);
    int killedMidRun = 0;
    for (int round = 0; round < 20; round++) {
      Process p = start();
      long waitMs = 500 + random.nextInt(1000);
      if (!p.waitFor(waitMs, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        killedMidRun++;
      }
      // a killed runner leaves its lease behind: it expires after 300 ms
      Thread.sleep(350);
    }
    Process last = start();
    assertThat(last.waitFor(180, TimeUnit.SECONDS)).isTrue();
    assertThat(last.exitValue()).as(Files.readString(dir.resolve("worker.log"))).isZero();
    assertThat(killedMidRun).as("rounds killed before finishing").isGreaterThan(5);
    try (SluiceSession session = SluiceSession.create()) {
      assertThat(Landing.ids(session.table(dir.resolve("out").toString()))).containsExactlyElementsOf(Landing.range(0, 1000));
    }
  }
}
