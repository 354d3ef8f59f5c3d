package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner lease against real processes: a runner killed with {@code kill -9} on this host is taken over at
 * once (its lease timeout is an hour here, so only the pid check can explain the takeover), a live one is refused
 * or waited for, and a holder on another host is waited for until its heartbeat ages.
 */
class RunnerLeaseTest {
  @TempDir Path dir;
  private Process holder;

  static StreamingQuery query(SluiceSession session, Path dir, Trigger trigger, String leaseTimeout, String wait) {
    return session.readStream().format("json").schema(Landing.SCHEMA).load(dir.resolve("landing").toString())
        .writeStream().queryName("leased").option("checkpointLocation", dir.resolve("ck").toString())
        .option("runnerLeaseTimeout", leaseTimeout).option("runnerLeaseWait", wait)
        .trigger(trigger).toTable(dir.resolve("out").toString());
  }

  @AfterEach
  void stopHolder() {
    if (holder != null) {
      holder.destroyForcibly();
    }
  }

  @Test
  void aRunnerKilledOnThisHostIsTakenOverAtOnce() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 2, 3);
    startHolder();
    holder.destroyForcibly().waitFor();
    try (SluiceSession session = SluiceSession.create()) {
      StreamingQuery q = query(session, dir, Trigger.availableNow(), "1 hour", "0 ms");
      q.awaitTermination();
      assertThat(q.exception()).isEmpty();
      assertThat(Landing.ids(session.table(dir.resolve("out").toString()))).containsExactlyElementsOf(Landing.range(0, 6));
    }
  }

  @Test
  void aLiveRunnerIsRefusedAtOnceOrWaitedForUntilItIsGone() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 1, 2);
    startHolder();
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(() -> query(session, dir, Trigger.availableNow(), "1 hour", "0 ms"))
          .hasMessageContaining("is already running").hasMessageContaining("option runnerLeaseWait");
      CompletableFuture<StreamingQuery> waiting = CompletableFuture.supplyAsync(
          () -> query(session, dir, Trigger.availableNow(), "1 hour", "30 seconds"));
      Thread.sleep(500);
      assertThat(waiting).as("still waiting for the live runner").isNotDone();
      holder.destroyForcibly().waitFor();
      StreamingQuery q = waiting.get(20, TimeUnit.SECONDS);
      q.awaitTermination();
      assertThat(q.exception()).isEmpty();
    }
  }

  @Test
  void aHolderOnAnotherHostIsWaitedForUntilItsHeartbeatAges() throws Exception {
    Landing.write(dir.resolve("landing"), 0, 1, 2);
    Files.createDirectories(dir.resolve("ck"));
    Files.writeString(dir.resolve("ck/runner"), "{\"runId\":\"00000000-0000-0000-0000-000000000001\","
        + "\"host\":\"1@elsewhere\",\"hostName\":\"elsewhere.invalid\",\"pid\":1,\"heartbeatAt\":\"" + Instant.now() + "\"}");
    try (SluiceSession session = SluiceSession.create()) {
      assertThatThrownBy(() -> query(session, dir, Trigger.availableNow(), "2 seconds", "0 ms"))
          .hasMessageContaining("1@elsewhere").hasMessageContaining("after 2 s");
      long t0 = System.nanoTime();
      StreamingQuery q = query(session, dir, Trigger.availableNow(), "2 seconds", "10 seconds");
      q.awaitTermination();
      assertThat(q.exception()).isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThan(Duration.ofMillis(1000));
    }
  }

  private void startHolder() throws Exception {
    holder = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        LeaseHolderWorker.class.getName(), dir.toString()).redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null && !line.contains("STARTED")) {
      // logs before the query started
    }
    assertThat(line).as("the holder process started its query").isNotNull();
    CompletableFuture.runAsync(() -> out.lines().forEach(l -> { }));
  }
}
