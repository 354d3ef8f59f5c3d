package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static dev.sluice.orchestration.service.ServiceFixture.GOLD;
import static dev.sluice.orchestration.service.ServiceFixture.SILVER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.PipelineRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM while the service in a child JVM is in the middle of a run: the run stops at a batch boundary,
 * every checkpoint is consistent, and the next availableNow run delivers every input row exactly once.
 */
class ServiceShutdownTest {
  @TempDir Path dir;

  @Test
  void sigtermDuringARunLeavesTablesConsistentAndTheNextRunCompletesExactlyOnce() throws Exception {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(12, 10);
    Path configFile = f.writeConfig("{every: 1 hour}");
    // output to a file: Process.destroy() closes the pipes, and the child's last words come after it
    Path log = dir.resolve("child.log");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
        ServiceChild.class.getName(), configFile.toString()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    try {
      ServiceFixture.await("bronze's batch 3 in the child", Duration.ofSeconds(40), () -> lines(log).contains("batch 3"));
      child.destroy();   // SIGTERM
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child exits; output %s", lines(log)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    List<String> output = lines(log);
    assertThat(output).as("the shutdown hooks ran: %s", output).contains("stopped");
    assertThat(output).filteredOn(l -> l.startsWith("record " + BRONZE))
        .singleElement().satisfies(l -> assertThat(l).startsWith("record " + BRONZE + " STOPPED"));
    assertThat(output).noneMatch(l -> l.startsWith("record " + SILVER) || l.startsWith("record " + GOLD));

    SluiceConfig config = f.config("{every: 1 hour}");
    checkpointIsConsistent(f, "bronze/events", BRONZE);
    try (SluiceSession session = SluiceSession.create()) {
      List<Object> bronze = f.column(session, "bronze/events", "id");
      assertThat(bronze).as("interrupted part way").hasSizeLessThan(f.ids().size()).doesNotHaveDuplicates();
      assertThat(f.ids()).containsAll(bronze.stream().map(String.class::cast).toList());
      OptionalLong txn = f.table(session, "bronze/events").latestSnapshot()
          .transactionVersion(queryId(f, "bronze/events", BRONZE));
      Set<Long> commits = batches(checkpoint(f, "bronze/events", BRONZE).resolve("commits"));
      Set<Long> offsets = batches(checkpoint(f, "bronze/events", BRONZE).resolve("offsets"));
      assertThat(txn).as("the table holds every committed batch and none beyond the offsets log").isPresent();
      assertThat(txn.getAsLong()).isBetween(max(commits), max(offsets));

      List<PipelineRunner.RunResult> results = PipelineRunner.runAvailableNow(session, config, List.of());
      assertThat(results).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
      f.check(session);
    }
    for (String[] t : new String[][] {{"bronze/events", BRONZE}, {"silver/events", SILVER}, {"gold/totals", GOLD}}) {
      checkpointIsConsistent(f, t[0], t[1]);
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Every commits/N has offsets/N, and at most the last offsets entry lacks its commit. */
  private static void checkpointIsConsistent(ServiceFixture f, String table, String pipeline) throws IOException {
    Path cp = checkpoint(f, table, pipeline);
    Set<Long> offsets = batches(cp.resolve("offsets"));
    Set<Long> commits = batches(cp.resolve("commits"));
    assertThat(offsets).as("%s offsets", pipeline).isNotEmpty();
    assertThat(offsets).as("%s: every commit has its offsets", pipeline).containsAll(commits);
    assertThat(max(offsets) - max(commits)).as("%s: only the last batch may lack its commit", pipeline).isBetween(0L, 1L);
    assertThat(new ObjectMapper().readTree(cp.resolve("metadata").toFile()).path("id").asText()).isNotEmpty();
  }

  /** The sinks' txn appId: the query id in the checkpoint's metadata. */
  private static String queryId(ServiceFixture f, String table, String pipeline) throws IOException {
    return new ObjectMapper().readTree(checkpoint(f, table, pipeline).resolve("metadata").toFile()).path("id").asText();
  }

  private static Path checkpoint(ServiceFixture f, String table, String pipeline) {
    return f.dir.resolve("warehouse").resolve(table).resolve("_checkpoints").resolve(pipeline);
  }

  private static Set<Long> batches(Path folder) throws IOException {
    Set<Long> out = new TreeSet<>();
    if (Files.isDirectory(folder)) {
      try (Stream<Path> files = Files.list(folder)) {
        files.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+")).forEach(n -> out.add(Long.parseLong(n)));
      }
    }
    return out;
  }

  private static long max(Set<Long> batches) {
    return batches.stream().mapToLong(Long::longValue).max().orElse(-1);
  }
}
