package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-line summary of a CLI run counts what this run committed. */
class PipelineRunsTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  @Test
  void aBatchReRunAfterACrashAndFoundCommittedIsNotCountedAgain() throws IOException {
    Path input = Files.createDirectories(dir.resolve("input"));
    for (int f = 0; f < 3; f++) {
      Files.writeString(input.resolve("e-" + f + ".jsonl"), "{\"id\": \"" + f + "a\"}\n{\"id\": \"" + f + "b\"}\n");
    }
    SluiceConfig config = oneFilePerBatch(input);
    // Batch 1 is committed to the table, then the run dies before commits/1.
    BatchInterceptor.REGISTRY.put("events_bronze", (step, batchId) -> {
      if (step == BatchInterceptor.Step.AFTER_SINK && batchId == 1) {
        throw new IllegalStateException("injected crash");
      }
    });
    assertThat(run(config).get(0).succeeded()).isFalse();
    BatchInterceptor.REGISTRY.clear();

    StringWriter out = new StringWriter();
    List<PipelineRuns.Outcome> again = run(config, out);

    assertThat(again.get(0).succeeded()).isTrue();
    assertThat(again.get(0).ledger()).containsEntry("rowsIn", 2L).containsEntry("written", 2L);
    assertThat(out.toString()).contains("ok      events_bronze  2 batches (1 re-run after a crash and found already"
        + " committed, not counted again), 2 rows in").contains("[2 in = 2 written]");
  }

  @Test
  void aRunOfMoreThanAHundredBatchesCountsThemAll() throws IOException {
    Path input = Files.createDirectories(dir.resolve("many"));
    for (int f = 0; f < 105; f++) {
      Files.writeString(input.resolve(String.format("e-%03d.jsonl", f)), "{\"id\": \"" + f + "a\"}\n{\"id\": \"" + f
          + "b\"}\n");
    }
    SluiceConfig config = oneFilePerBatch(input);
    StringWriter out = new StringWriter();

    List<PipelineRuns.Outcome> outcomes = run(config, out);

    assertThat(outcomes.get(0).batches()).isEqualTo(105);
    assertThat(outcomes.get(0).rowsIn()).isEqualTo(210);
    assertThat(outcomes.get(0).ledger()).containsEntry("rowsIn", 210L).containsEntry("written", 210L);
    assertThat(out.toString()).contains("ok      events_bronze  105 batches, 210 rows in").contains("[210 in = 210 written]");
  }

  /** A bronze pipeline of JSON events {@code {"id": ...}} from {@code input}, one file per batch. */
  private SluiceConfig oneFilePerBatch(Path input) {
    return ConfigLoader.parse("""
        warehouse: %s
        defaults: {trigger: available_now, max_files_per_trigger: 1}
        pipelines:
          - name: events_bronze
            layer: bronze
            source: {format: json, path: %s, schema: [{name: id, type: string}]}
            sink: {table: bronze/events}
        """.formatted(dir.resolve("warehouse").toUri(), input), "test.yaml", Map.of());
  }

  private static List<PipelineRuns.Outcome> run(SluiceConfig config) {
    return run(config, new StringWriter());
  }

  private static List<PipelineRuns.Outcome> run(SluiceConfig config, StringWriter out) {
    Terminal terminal = new Terminal(new PrintWriter(out, true), new PrintWriter(out, true), false, false, false);
    try (PipelineRuns runs = new PipelineRuns(config, terminal)) {
      return runs.runAvailableNow(config.pipelines());
    }
  }
}
