package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run the launcher starts with C1 only stays in that JVM when it is short, and otherwise runs again, before any
 * pipeline starts, in a JVM with C2 as well, which dies with the first one.
 */
class CompilerRestartIT {
  private static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1",
      "-D" + CompilerRestart.STARTED_PROPERTY + "=quick");

  @TempDir Path dir;

  private Path config(String trigger) throws IOException {
    Path input = Files.createDirectories(dir.resolve("input"));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      lines.append("{\"id\": \"e").append(i).append("\"}\n");
    }
    Files.writeString(input.resolve("events.jsonl"), lines);
    Path config = dir.resolve("pipelines.yaml");
    Files.writeString(config, """
        warehouse: %s
        defaults: {trigger: %s}
        pipelines:
          - name: events_bronze
            layer: bronze
            source: {format: json, path: %s, schema: [{name: id, type: string}]}
            sink: {table: bronze/events}
        """.formatted(dir.resolve("warehouse").toUri(), trigger, input));
    return config;
  }

  private static JsonNode report(Path file) throws IOException {
    return new ObjectMapper().readTree(file.toFile());
  }

  @Test
  void aShortRunStaysInItsC1OnlyJvm() throws IOException {
    Path report = dir.resolve("short.json");
    SluiceProcess.Result r = SluiceProcess.run(dir, Map.of(), QUICK_START, "run", config("available_now").toString(),
        "--available-now", "--report-json", report.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("ok      events_bronze").contains("500 rows");
    assertThat(report(report).path("compiler").asText()).isEqualTo("quick");
    assertThat(report(report).path("tiered_stop_at_level").asInt()).isEqualTo(1);
  }

  @Test
  void aRunThatIsNotShortRunsOnceInAJvmWithC2() throws IOException {
    Path report = dir.resolve("long.json");
    // full: as a large backlog would, it asks for C2, which a C1-only JVM can't turn on
    List<String> options = new ArrayList<>(QUICK_START);
    options.add("-D" + ShortRunCompiler.PROPERTY + "=full");
    SluiceProcess.Result r = SluiceProcess.run(dir, Map.of(), options, "run", config("available_now").toString(),
        "--available-now", "--report-json", report.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out().split("ok      events_bronze", -1)).as("one summary: run once").hasSize(2);
    assertThat(r.out()).contains("500 rows");
    assertThat(report(report).path("compiler").asText()).isEqualTo("full");
    assertThat(report(report).path("tiered_stop_at_level").asInt()).isEqualTo(4);
  }

  @Test
  void aFailureInTheSecondJvmIsTheCommandsExitCode() throws IOException {
    List<String> options = new ArrayList<>(QUICK_START);
    options.add("-D" + ShortRunCompiler.PROPERTY + "=full");
    Path config = config("available_now");
    // the table's folder is a file: the pipeline fails once it runs, in the second JVM
    Files.createDirectories(dir.resolve("warehouse/bronze"));
    Files.writeString(dir.resolve("warehouse/bronze/events"), "not a table");
    SluiceProcess.Result r = SluiceProcess.run(dir, Map.of(), options, "run", config.toString(), "--available-now");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.FAILED);
    assertThat(r.err()).contains("1 of 1 pipelines failed");
  }

  @Test
  void aKill9OfTheFirstJvmEndsTheSecond() throws Exception {
    Path config = config("{processing_time: 200 ms}");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m"));
    command.addAll(QUICK_START);
    command.addAll(List.of("-cp", SluiceProcess.classpath(), SluiceCli.class.getName(), "run", config.toString()));
    Path out = dir.resolve("out.txt");
    Process first = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    try {
      ProcessHandle second = awaitChild(first, Duration.ofSeconds(60))
          .orElseThrow(() -> new AssertionError("no second JVM: " + read(out)));
      awaitOutput(out, "running every", Duration.ofSeconds(60));
      first.destroyForcibly();
      assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(second.onExit().get(10, TimeUnit.SECONDS).isAlive()).as("the second JVM halted").isFalse();
    } finally {
      first.descendants().forEach(ProcessHandle::destroyForcibly);
      first.destroyForcibly();
    }
  }

  private static Optional<ProcessHandle> awaitChild(Process p, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end && p.isAlive()) {
      Optional<ProcessHandle> child = p.children().findFirst();
      if (child.isPresent()) {
        return child;
      }
      Thread.sleep(50);
    }
    return Optional.empty();
  }

  private static void awaitOutput(Path out, String text, Duration timeout) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (!read(out).contains(text)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("no '" + text + "' in: " + read(out));
      }
      Thread.sleep(100);
    }
  }

  private static String read(Path out) {
    try {
      return Files.exists(out) ? Files.readString(out) : "";
    } catch (IOException e) {
      return e.toString();
    }
  }
}
