package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The medallion benchmark end to end on a tiny data set: Sluice and DuckDB as child processes (Spark skipped: its
 * JVM alone takes longer than this test may), one JSON object per run and the summary in the results file.
 */
class MedallionCommandSmokeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void oneRoundOfSluiceAndDuckDbGivesRunsAndASummaryWithTheTargets() throws IOException {
    Path results = dir.resolve("results.jsonl");
    int code = new CommandLine(new MedallionCommand()).execute("--events", "2000", "--rounds", "1", "--skip-spark",
        "--generator", "sluice", "--xmx", "256m", "--work", dir.toString(), "--results", results.toString(),
        "--sluice-classpath", System.getProperty("java.class.path"));

    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(results)) {
      lines.add(JSON.readTree(line));
    }
    assertThat(code).as(lines.toString()).isZero();
    assertThat(lines).hasSize(3);
    JsonNode sluice = lines.stream().filter(l -> l.path("engine").asText().equals("sluice")).findFirst().orElseThrow();
    assertThat(sluice.path("succeeded").asBoolean()).as(sluice.toString()).isTrue();
    assertThat(sluice.path("wall_ms").asLong()).isPositive();
    assertThat(sluice.path("peak_heap_used_mb").asLong()).isPositive().isLessThanOrEqualTo(256);
    assertThat(sluice.path("stages")).hasSize(3);
    JsonNode bronze = sluice.path("stages").get(0);
    assertThat(bronze.path("layer").asText()).isEqualTo("bronze");
    assertThat(bronze.path("rows_in").asLong()).isEqualTo(2000);
    assertThat(bronze.path("ledger").path("rowsIn").asLong()).isEqualTo(2000);

    JsonNode duckdb = lines.stream().filter(l -> l.path("engine").asText().equals("duckdb")).findFirst().orElseThrow();
    assertThat(duckdb.path("succeeded").asBoolean()).as(duckdb.toString()).isTrue();
    assertThat(duckdb.path("bronze_rows").asLong()).isEqualTo(2000);
    assertThat(duckdb.path("silver_rows").asLong()).isEqualTo(sluice.path("stages").get(2).path("rows_in").asLong());

    JsonNode summary = lines.get(2);
    assertThat(summary.path("benchmark").asText()).isEqualTo("medallion_summary");
    assertThat(summary.path("ratios").path("sluice_over_duckdb_wall").asDouble()).isPositive();
    assertThat(summary.path("targets").fieldNames()).toIterable().containsExactly("sluice_over_duckdb_wall",
        "peak_heap_used_mb", "cpu_per_wall_per_stage", "bronze_rows_per_s");
    assertThat(summary.path("targets").path("peak_heap_used_mb").path("pass").asBoolean()).isTrue();
    assertThat(summary.path("engines").path("sluice").path("stages").path("orders_silver").path("median_wall_ms")
        .asLong()).isPositive();
  }
}
