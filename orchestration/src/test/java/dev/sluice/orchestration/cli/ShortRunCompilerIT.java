package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.Sessions;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short finite run turns the optimising compiler off in its own JVM ({@code sluice.compiler=auto}); a large
 * backlog, {@code full}, or a CLI run inside another program's JVM leave it on.
 */
class ShortRunCompilerIT {
  @TempDir Path dir;

  private Path config(Path input) throws IOException {
    Path config = dir.resolve("pipelines.yaml");
    Files.writeString(config, """
        warehouse: %s
        defaults: {trigger: available_now}
        pipelines:
          - name: events_bronze
            layer: bronze
            source: {format: json, path: %s, schema: [{name: id, type: string}]}
            sink: {table: bronze/events}
          - name: events_silver
            layer: silver
            source: {pipeline: events_bronze}
            sink: {table: silver/events, merge: {keys: [id]}}
            after: [events_bronze]
        """.formatted(dir.resolve("warehouse").toUri(), input));
    return config;
  }

  private Path smallInput() throws IOException {
    Path input = Files.createDirectories(dir.resolve("input"));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      lines.append("{\"id\": \"e").append(i).append("\"}\n");
    }
    Files.writeString(input.resolve("events.jsonl"), lines);
    return input;
  }

  private String compilerOf(Path report) throws IOException {
    return new ObjectMapper().readTree(report.toFile()).path("compiler").asText();
  }

  @Test
  void aSmallBacklogRunsWithoutC2AndFullKeepsIt() throws IOException {
    Path config = config(smallInput());
    Path report = dir.resolve("quick.json");
    SluiceProcess.Result quick = SluiceProcess.run(dir, Map.of(), List.of("-XX:+PrintCompilation"), "run",
        config.toString(), "--available-now", "--report-json", report.toString());
    assertThat(quick.exitCode()).as(quick.toString()).isZero();
    assertThat(compilerOf(report)).isEqualTo("quick");
    assertThat(quick.out()).as("HotSpot refused C2 compilations").contains("made not compilable on level 4");

    Path fullReport = dir.resolve("full.json");
    SluiceProcess.Result full = SluiceProcess.run(dir, Map.of(),
        List.of("-XX:+PrintCompilation", "-Dsluice.compiler=full"), "run", config.toString(), "--available-now",
        "--report-json", fullReport.toString());
    assertThat(full.exitCode()).as(full.toString()).isZero();
    assertThat(compilerOf(fullReport)).isEqualTo("full");
    assertThat(full.out()).doesNotContain("made not compilable on level 4");
  }

  @Test
  void aBadModeNamesThePropertyAndItsValues() throws IOException {
    SluiceProcess.Result r = SluiceProcess.run(dir, Map.of(), List.of("-Dsluice.compiler=fast"), "run",
        config(smallInput()).toString(), "--available-now");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err()).contains("System property sluice.compiler must be auto, full or quick, not 'fast'");
  }

  @Test
  void onlyKnownSmallBacklogsAreShort() throws IOException {
    Path input = smallInput();
    SluiceConfig small = Pipelines.load(config(input));
    try (SluiceSession session = Sessions.builder(small).build()) {
      assertThat(ShortRunCompiler.isShort(session, small, small.pipelines())).isTrue();
      // 65 MB of new landing data (a sparse file: nothing is written) makes the run a long one.
      try (RandomAccessFile big = new RandomAccessFile(input.resolve("big.jsonl").toFile(), "rw")) {
        big.setLength(ShortRunCompiler.MAX_FILE_BYTES + (1 << 20));
      }
      assertThat(ShortRunCompiler.isShort(session, small, small.pipelines())).isFalse();
      java.util.function.Function<dev.sluice.config.PipelineConfig, Backlog> backlogs =
          p -> Backlog.of(session, small, p);
      assertThat(ShortRunCompiler.isMedium(small.pipelines(), backlogs)).as("65 MB: a medium run").isTrue();
      try (RandomAccessFile big = new RandomAccessFile(input.resolve("big.jsonl").toFile(), "rw")) {
        big.setLength(ShortRunCompiler.MAX_MEDIUM_FILE_BYTES + (1 << 20));
      }
      assertThat(ShortRunCompiler.isMedium(small.pipelines(), backlogs)).as("513 MB: a long run").isFalse();
    }
  }

  @Test
  void aMediumRunsOptionsComeBeforeTheUsersSoTheUsersWin() {
    List<String> options = CompilerRestart.jvmOptions(
        List.of("-XX:TieredStopAtLevel=1", "-Dsluice.compiler.started=quick", "-Xmx1g", "-XX:FreqInlineSize=325"),
        ShortRunCompiler.MEDIUM_RUN_OPTIONS);
    assertThat(options).startsWith(ShortRunCompiler.MEDIUM_RUN_OPTIONS.toArray(String[]::new))
        .contains("-Dsluice.compiler.medium=true").doesNotContain("-XX:TieredStopAtLevel=1")
        .endsWith("-Xmx1g", "-XX:FreqInlineSize=325");
    assertThat(CompilerRestart.jvmOptions(List.of("-Xmx1g"), List.of())).containsExactly("-Xmx1g");
  }

  @Test
  void insideAnotherProgramsJvmTheCliCompilesAsUsual() {
    assertThat(System.getProperty(ShortRunCompiler.PROPERTY)).isNull();
    assertThat(ShortRunCompiler.mode()).isEqualTo(ShortRunCompiler.Mode.FULL);
  }
}
