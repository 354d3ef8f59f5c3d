package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineConfig;
import dev.sluice.ingestion.Location;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.checkpoint.QueryCheckpoint;
import dev.sluice.orchestration.cli.SluiceCli;
import dev.sluice.orchestration.cli.SluiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code kill -9} of {@code sluice run --available-now} child processes at random moments over the orders example,
 * each kill followed at once by the next run, new landing files arriving in between; then one run to the end and
 * the oracle check of every layer and ledger.
 *
 * <p>A killed runner leaves its lease (the checkpoint's {@code runner} file) with a fresh heartbeat behind. The next
 * run starts at once all the same, because the lease names the dead runner's pid and start time on this host; a run
 * that instead failed "already running" would fail the loop (every run that ends must exit 0).
 */
final class KillLoop {
  /** What happened. */
  record Figures(int kills, int completedChildRuns, Map<String, Integer> killedMidBatch, int leasesLeftBehind,
      int validLines, int brokenLines) {}

  static final long STARTUP_MS = 1_200;

  private final OrdersScenario scenario;
  private final Path config;
  private final SluiceSession session;
  private final Random random;
  private final Map<String, String> env;

  KillLoop(OrdersScenario scenario, Path config, SluiceSession session, long seed, Map<String, String> env) {
    this.scenario = scenario;
    this.config = config;
    this.session = session;
    this.random = new Random(seed);
    this.env = env;
  }

  /** Kills {@code kills} runs, or fewer when the wall-clock budget {@code sluice.chaos.deadline.<label>} ends first. */
  Figures run(int kills, String label) {
    int done = 0;
    int killed = 0;
    int leftBehind = 0;
    Map<String, Integer> midBatch = new TreeMap<>();
    List<Long> runMillis = new ArrayList<>();
    long typical = 6_000;
    int round = 0;
    // -Pchaos may give a wall-clock budget: the loop then stops killing in time for the final run and check
    long deadline = Long.getLong("sluice.chaos.deadline." + label, Long.MAX_VALUE);
    while (killed < kills && System.currentTimeMillis() < deadline) {
      if (round++ % 3 == 0) {
        scenario.land(2, 120);
      }
      // JVM start-up takes about a second before the child touches storage: most kills land after it
      long delay = STARTUP_MS + (long) (random.nextDouble() * (typical - STARTUP_MS) * 1.1);
      long start = System.nanoTime();
      Process p = start();
      // Every fourth run goes to the end: it learns how long a run takes and lets the backlog drain, so the kills
      // that follow spread over bronze, silver and gold instead of all landing in bronze's first batches.
      boolean finished = waitFor(p, round % 4 == 0 ? 180_000 : delay);
      if (finished) {
        assertThat(p.exitValue()).as("run %d after %d kills: %s", round, killed, output(p)).isZero();
        done++;
        runMillis.add((System.nanoTime() - start) / 1_000_000);
        typical = runMillis.stream().sorted().toList().get(runMillis.size() / 2);
        continue;
      }
      if (runMillis.isEmpty()) {
        typical = Math.max(typical, delay);   // no run has finished yet: they take longer than this
      }
      p.destroyForcibly();   // SIGKILL: no shutdown hook, no finally, no lease release
      waitFor(p, 30_000);
      killed++;
      if (killed % 10 == 0) {
        System.out.println("chaos kill -9 (" + label + "): " + killed + " kills, " + done + " completed runs, mid-batch " + midBatch);
      }
      for (PipelineConfig pc : scenario.config.pipelines()) {
        QueryCheckpoint c = checkpoint(pc);
        OptionalLong planned = c.latestOffsetsBatch();
        OptionalLong committed = c.latestCommitBatch();
        if (planned.isPresent() && (committed.isEmpty() || committed.getAsLong() < planned.getAsLong())) {
          midBatch.merge(pc.name(), 1, Integer::sum);
        }
        Location lease = c.root().resolve("runner");
        if (lease.store().status(lease.key()).isPresent()) {
          leftBehind++;
        }
      }
    }
    // The last run in this JVM (warm, so the short version stays short): it resumes after the last kill.
    assertThat(scenario.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
    scenario.check(session);
    OrdersOracle oracle = scenario.oracle();
    return new Figures(killed, done, midBatch, leftBehind, oracle.validLines.size(), oracle.brokenLines.size());
  }

  private QueryCheckpoint checkpoint(PipelineConfig p) {
    return new QueryCheckpoint(session.location(scenario.config.tableUri(p.sink().table()) + "/_checkpoints/"
        + p.name()));
  }

  private Process start() {
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
        "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", SluiceProcess.classpath(), SluiceCli.class.getName(), "-q",
        "run", config.toString(), "--available-now");
    ProcessBuilder pb = new ProcessBuilder(command).directory(scenario.dir.toFile());
    pb.environment().putAll(env);
    try {
      Path out = scenario.dir.resolve("child.log");
      pb.redirectErrorStream(true).redirectOutput(out.toFile());
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String output(Process p) {
    try {
      return Files.readString(scenario.dir.resolve("child.log"));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  private static boolean waitFor(Process p, long millis) {
    try {
      return p.waitFor(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
