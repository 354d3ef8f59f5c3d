package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice run --report-json FILE} writes each pipeline's time, CPU, rows and the peak heap. */
class RunReportTest {
  @TempDir Path dir;

  @Test
  void theReportHasOneStagePerPipelineWithRowsTimesAndPeakHeap() throws IOException {
    Path input = Files.createDirectories(dir.resolve("input"));
    for (int f = 0; f < 3; f++) {
      Files.writeString(input.resolve("e-" + f + ".jsonl"), "{\"id\": \"" + f + "a\"}\n{\"id\": \"" + f + "b\"}\n");
    }
    Path config = dir.resolve("pipelines.yaml");
    Files.writeString(config, """
        warehouse: %s
        defaults: {trigger: available_now, max_files_per_trigger: 1}
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
    Path report = dir.resolve("out/report.json");
    StringWriter out = new StringWriter();

    int code = SluiceCli.execute(new String[] {"run", config.toString(), "--available-now", "--report-json",
        report.toString()}, new PrintWriter(out, true), new PrintWriter(out, true), false);

    assertThat(code).as(out.toString()).isZero();
    JsonNode json = new ObjectMapper().readTree(report.toFile());
    assertThat(json.path("succeeded").asBoolean()).isTrue();
    assertThat(json.path("peak_heap_used_mb").asLong()).isPositive();
    assertThat(json.path("heap_max_mb").asLong()).isGreaterThanOrEqualTo(json.path("peak_heap_used_mb").asLong());
    assertThat(json.path("wall_ms").asLong()).isPositive();
    assertThat(json.path("stages")).hasSize(2);
    JsonNode bronze = json.path("stages").get(0);
    assertThat(bronze.path("pipeline").asText()).isEqualTo("events_bronze");
    assertThat(bronze.path("layer").asText()).isEqualTo("bronze");
    assertThat(bronze.path("batches").asLong()).isEqualTo(3);
    assertThat(bronze.path("rows_in").asLong()).isEqualTo(6);
    assertThat(bronze.path("ledger").path("written").asLong()).isEqualTo(6);
    assertThat(bronze.path("batch_ms")).hasSize(3);
    assertThat(bronze.path("cpu_ms").asLong()).isPositive();
    assertThat(bronze.path("wall_ms").asLong()).isLessThanOrEqualTo(json.path("wall_ms").asLong());
    assertThat(json.path("stages").get(1).path("rows_in").asLong()).isEqualTo(6);
    if (Files.isReadable(Path.of("/proc/self/io"))) {
      long inputBytes = 0;
      try (var files = Files.list(input)) {
        for (Path f : files.toList()) {
          inputBytes += Files.size(f);
        }
      }
      assertThat(bronze.path("read_bytes").asLong()).as("bronze read its three input files")
          .isGreaterThanOrEqualTo(inputBytes);
      assertThat(bronze.path("written_bytes").asLong()).as("and wrote Parquet files and commits").isPositive();
    }
  }
}
