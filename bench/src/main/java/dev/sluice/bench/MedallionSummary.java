package dev.sluice.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary of the medallion runs: per engine the medians over its successful rounds, Sluice's stages, the
 * ratios Spark/Sluice and Sluice/DuckDB (whole-process wall time, and CPU time, steadier on a busy machine),
 * and each of issue 10's targets with its value and pass/fail.
 */
final class MedallionSummary {
  static final double SPARK_SPEEDUP = 5.0;
  static final double DUCKDB_RATIO = 2.5;
  static final long HEAP_MB = 1024;
  static final double STAGE_CPU_PER_WALL = 1.7;
  static final long BRONZE_ROWS_PER_S = 1_000_000;

  private MedallionSummary() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> of(List<Map<String, Object>> runs, String xmx) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("benchmark", "medallion_summary");
    Map<String, Map<String, Object>> engines = new LinkedHashMap<>();
    for (String engine : List.of("sluice", "spark", "duckdb")) {
      List<Map<String, Object>> mine = runs.stream().filter(r -> engine.equals(r.get("engine"))).toList();
      if (mine.isEmpty()) {
        continue;
      }
      List<Map<String, Object>> ok = mine.stream().filter(r -> Boolean.TRUE.equals(r.get("succeeded"))).toList();
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("rounds", mine.size());
      e.put("succeeded", ok.size());
      for (String k : List.of("wall_ms", "cpu_ms", "peak_rss_mb", "other_processes_cpu_ms", "in_process_wall_ms",
          "peak_heap_used_mb", "sql_ms")) {
        List<Double> values = numbers(ok, k);
        if (!values.isEmpty()) {
          e.put("median_" + k, Math.round(median(values)));
        }
      }
      if (!ok.isEmpty() && ok.get(0).get("stages") instanceof List<?>) {
        e.put("stages", stages(ok));
      }
      engines.put(engine, e);
    }
    out.put("engines", engines);

    Map<String, Object> sluice = engines.get("sluice");
    Map<String, Object> spark = engines.get("spark");
    Map<String, Object> duckdb = engines.get("duckdb");
    Map<String, Object> ratios = new LinkedHashMap<>();
    Map<String, Object> targets = new LinkedHashMap<>();
    if (sluice != null && spark != null) {
      Double wall = ratio(spark, sluice, "median_wall_ms");
      ratios.put("spark_over_sluice_wall", wall);
      ratios.put("spark_over_sluice_cpu", ratio(spark, sluice, "median_cpu_ms"));
      targets.put("spark_over_sluice_wall", target(wall, ">= " + SPARK_SPEEDUP, wall != null && wall >= SPARK_SPEEDUP));
    }
    if (sluice != null && duckdb != null) {
      Double wall = ratio(sluice, duckdb, "median_wall_ms");
      ratios.put("sluice_over_duckdb_wall", wall);
      ratios.put("sluice_over_duckdb_cpu", ratio(sluice, duckdb, "median_cpu_ms"));
      targets.put("sluice_over_duckdb_wall", target(wall, "<= " + DUCKDB_RATIO, wall != null && wall <= DUCKDB_RATIO));
    }
    out.put("ratios", ratios);
    if (sluice != null) {
      List<Map<String, Object>> sluiceRuns = runs.stream().filter(r -> "sluice".equals(r.get("engine"))).toList();
      boolean allOk = sluiceRuns.stream().allMatch(r -> Boolean.TRUE.equals(r.get("succeeded")));
      long peak = numbers(sluiceRuns, "peak_heap_used_mb").stream().mapToLong(Math::round).max().orElse(-1);
      Map<String, Object> heap = target(peak, "every run succeeds with -Xmx" + xmx + ", peak used heap <= " + HEAP_MB
          + " MB", allOk && peak >= 0 && peak <= HEAP_MB);
      heap.put("xmx", xmx);
      targets.put("peak_heap_used_mb", heap);
      Map<String, Object> perStage = new LinkedHashMap<>();
      boolean busy = false;
      Object bronzeRate = null;
      if (sluice.get("stages") instanceof Map<?, ?> stages && !stages.isEmpty()) {
        busy = true;
        for (Map.Entry<?, ?> s : stages.entrySet()) {
          Map<String, Object> st = (Map<String, Object>) s.getValue();
          Object cpw = st.get("median_cpu_per_wall");
          perStage.put(String.valueOf(s.getKey()), cpw);
          busy &= cpw instanceof Number n && n.doubleValue() >= STAGE_CPU_PER_WALL;
          if ("bronze".equals(st.get("layer"))) {
            bronzeRate = st.get("median_rows_per_s");
          }
        }
      }
      targets.put("cpu_per_wall_per_stage", target(perStage, ">= " + STAGE_CPU_PER_WALL + " in every stage", busy));
      targets.put("bronze_rows_per_s", target(bronzeRate, ">= " + BRONZE_ROWS_PER_S,
          bronzeRate instanceof Number n && n.doubleValue() >= BRONZE_ROWS_PER_S));
    }
    out.put("targets", targets);
    out.put("all_targets_pass", !targets.isEmpty()
        && targets.values().stream().allMatch(t -> Boolean.TRUE.equals(((Map<String, Object>) t).get("pass"))));
    return out;
  }

  /** Per stage (by pipeline name, in run order) the medians of wall, CPU, CPU/wall and rows/s. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> stages(List<Map<String, Object>> runs) {
    Map<String, List<Map<String, Object>>> byName = new LinkedHashMap<>();
    for (Map<String, Object> r : runs) {
      if (r.get("stages") instanceof List<?> list) {
        for (Object o : list) {
          Map<String, Object> s = (Map<String, Object>) o;
          byName.computeIfAbsent(String.valueOf(s.get("pipeline")), k -> new ArrayList<>()).add(s);
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    byName.forEach((name, list) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("layer", list.get(0).get("layer"));
      m.put("rows_in", list.get(0).get("rows_in"));
      for (String k : List.of("wall_ms", "cpu_ms", "rows_per_s")) {
        List<Double> v = numbers(list, k);
        if (!v.isEmpty()) {
          m.put("median_" + k, Math.round(median(v)));
        }
      }
      List<Double> cpw = numbers(list, "cpu_per_wall");
      if (!cpw.isEmpty()) {
        m.put("median_cpu_per_wall", Math.round(median(cpw) * 100) / 100.0);
      }
      out.put(name, m);
    });
    return out;
  }

  private static Map<String, Object> target(Object value, String target, boolean pass) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("value", value);
    m.put("target", target);
    m.put("pass", pass);
    return m;
  }

  private static Double ratio(Map<String, Object> num, Map<String, Object> den, String key) {
    if (!(num.get(key) instanceof Number a) || !(den.get(key) instanceof Number b) || b.doubleValue() <= 0
        || a.doubleValue() < 0) {
      return null;
    }
    return Double.valueOf(String.format(Locale.ROOT, "%.2f", a.doubleValue() / b.doubleValue()));
  }

  private static List<Double> numbers(List<Map<String, Object>> runs, String key) {
    return runs.stream().map(r -> r.get(key)).filter(v -> v instanceof Number n && n.doubleValue() >= 0)
        .map(v -> ((Number) v).doubleValue()).toList();
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
