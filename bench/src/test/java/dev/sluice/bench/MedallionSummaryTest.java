package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary's medians, ratios and pass/fail against issue 10's targets. */
class MedallionSummaryTest {
  @Test
  void ratiosAreOfMedianWholeProcessWallTimesAndEachTargetPassesOrFails() {
    List<Map<String, Object>> runs = List.of(
        sluice(12_000, 1_500_000, 1.8, 900), sluice(14_000, 900_000, 1.9, 950), sluice(13_000, 1_200_000, 1.75, 800),
        run("spark", 66_000), run("spark", 70_000), run("spark", 60_000),
        run("duckdb", 5_000), run("duckdb", 6_000), run("duckdb", 5_500));

    Map<String, Object> s = MedallionSummary.of(runs, "1g");

    assertThat(ratios(s)).containsEntry("spark_over_sluice_wall", 5.08).containsEntry("sluice_over_duckdb_wall", 2.36);
    assertThat(pass(s, "spark_over_sluice_wall")).isTrue();
    assertThat(pass(s, "sluice_over_duckdb_wall")).isTrue();
    assertThat(pass(s, "peak_heap_used_mb")).isTrue();
    assertThat(target(s, "peak_heap_used_mb").get("value")).isEqualTo(950L);
    assertThat(pass(s, "cpu_per_wall_per_stage")).isTrue();
    assertThat(target(s, "bronze_rows_per_s").get("value")).isEqualTo(1_200_000L);
    assertThat(pass(s, "bronze_rows_per_s")).isTrue();
    assertThat(s.get("all_targets_pass")).isEqualTo(true);
  }

  @Test
  void aFailedSluiceRunOrAnIdleStageFailsItsTarget() {
    Map<String, Object> failed = sluice(12_000, 1_500_000, 1.5, 900);
    failed.put("succeeded", false);
    Map<String, Object> s = MedallionSummary.of(List.of(sluice(12_000, 1_500_000, 1.5, 900), failed), "1g");

    assertThat(pass(s, "peak_heap_used_mb")).isFalse();
    assertThat(pass(s, "cpu_per_wall_per_stage")).isFalse();
    assertThat(s.get("all_targets_pass")).isEqualTo(false);
  }

  private static Map<String, Object> run(String engine, long wall) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("engine", engine);
    r.put("succeeded", true);
    r.put("wall_ms", wall);
    r.put("cpu_ms", wall * 2);
    return r;
  }

  private static Map<String, Object> sluice(long wall, long bronzeRate, double cpuPerWall, long heap) {
    Map<String, Object> r = run("sluice", wall);
    r.put("peak_heap_used_mb", heap);
    r.put("stages", List.of(stage("orders_bronze", "bronze", bronzeRate, cpuPerWall),
        stage("orders_silver", "silver", 500_000, 1.8)));
    return r;
  }

  private static Map<String, Object> stage(String name, String layer, long rate, double cpuPerWall) {
    return Map.of("pipeline", name, "layer", layer, "rows_per_s", rate, "cpu_per_wall", cpuPerWall, "wall_ms", 1000L);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> ratios(Map<String, Object> s) {
    return (Map<String, Object>) s.get("ratios");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> target(Map<String, Object> s, String name) {
    return (Map<String, Object>) ((Map<String, Object>) s.get("targets")).get(name);
  }

  private static boolean pass(Map<String, Object> s, String name) {
    return Boolean.TRUE.equals(target(s, name).get("pass"));
  }
}
