package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.orchestration.demo.OrdersGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench/run.sh medallion}: the whole-process comparison. Runs, alternated, N rounds of Sluice's
 * orders medallion ({@code ./sluice run examples/orders/pipelines.yaml --available-now}, fresh warehouse each
 * round), the Spark baseline ({@code run.sh run}) and DuckDB's {@code medallion.sql}, each as its own process on
 * the same data; prints one JSON object per run and a summary (medians, ratios, pass/fail against the targets),
 * and writes them to a results file.
 */
@Command(name = "medallion", mixinStandardHelpOptions = true,
    description = "Sluice vs Spark vs DuckDB on the orders medallion, whole processes, alternated rounds; JSON out.")
final class MedallionCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--events", paramLabel = "N", description = "Order events to generate when --data has none (default ${DEFAULT-VALUE}).")
  long events = 2_000_000;

  @Option(names = "--rounds", paramLabel = "N", description = "Rounds; each runs every engine once (default ${DEFAULT-VALUE}).")
  int rounds = 3;

  @Option(names = "--xmx", paramLabel = "SIZE", description = "Sluice's heap: SLUICE_JAVA_OPTS=-Xmx<this> (default ${DEFAULT-VALUE}).")
  String xmx = "1g";

  @Option(names = "--sluice-java-opts", paramLabel = "OPTS", description = "More JVM options for Sluice (e.g. a JFR recording).")
  String sluiceJavaOpts = "";

  @Option(names = "--data", paramLabel = "DIR", description = "Data set (input/, customers/); generated there when it has no input/ "
      + "(default: <work>/data-<events>).")
  Path data;

  @Option(names = "--work", paramLabel = "DIR", description = "Warehouses, logs and results (default: <tmpdir>/sluice-bench).")
  Path work = Path.of(System.getProperty("java.io.tmpdir"), "sluice-bench");

  @Option(names = "--results", paramLabel = "FILE", description = "Results file, JSON lines (default: <work>/medallion-<time>.jsonl).")
  Path results;

  @Option(names = "--skip-spark", description = "Do not run the Spark baseline.")
  boolean skipSpark;

  @Option(names = "--skip-duckdb", description = "Do not run DuckDB.")
  boolean skipDuckdb;

  @Option(names = "--spark-home", paramLabel = "DIR", description = "A spark-baseline folder (built or not; default: shared/spark-baseline "
      + "beside the checkout).")
  Path sparkHome;

  @Option(names = "--spark-arg", paramLabel = "ARG", description = "One more argument for the Spark baseline's "
      + "`run.sh run` (repeatable), e.g. --spark-arg=--no-check to leave out its result check.")
  List<String> sparkArgs = new ArrayList<>();

  @Option(names = "--generator", paramLabel = "auto|spark|sluice", description = "auto (the Spark baseline's when found, else Sluice's), spark or sluice "
      + "(default ${DEFAULT-VALUE}).")
  String generator = "auto";

  @Option(names = "--keep", description = "Keep each run's warehouse/output (default: deleted after the run).")
  boolean keep;

  /** Runs Sluice as {@code java -cp <this> SluiceCli} instead of the checkout's ./sluice (for the smoke test). */
  @Option(names = "--sluice-classpath", hidden = true)
  String sluiceClasspath;

  @Override
  public Integer call() throws Exception {
    Path repo = Checkout.root();
    work = work.toAbsolutePath();
    Files.createDirectories(work);
    Path data = this.data != null ? this.data.toAbsolutePath() : work.resolve("data-" + events);
    Path spark = null;
    if (!skipSpark || generator.equals("spark") || (generator.equals("auto") && !hasInput(data))) {
      spark = resolveSpark(repo);
    }
    ensureData(data, spark);
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
    Path runDir = work.resolve("medallion-" + stamp);
    Path resultsFile = results != null ? results : work.resolve("medallion-" + stamp + ".jsonl");
    Files.createDirectories(resultsFile.toAbsolutePath().getParent());
    Files.deleteIfExists(resultsFile);

    List<String> engines = new ArrayList<>(List.of("sluice"));
    if (!skipSpark) {
      engines.add("spark");
    }
    if (!skipDuckdb) {
      engines.add("duckdb");
    }
    List<Map<String, Object>> runs = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      // Each round starts with the next engine, so that none always runs first (or right after another).
      for (int i = 0; i < engines.size(); i++) {
        String engine = engines.get((r + i) % engines.size());
        Path dir = runDir.resolve("round-" + r);
        System.err.println("bench: round " + (r + 1) + "/" + rounds + ": " + engine + "...");
        Map<String, Object> run = switch (engine) {
          case "sluice" -> sluice(repo, data, dir);
          case "spark" -> spark(spark, data, dir);
          default -> duckdb(repo, data, dir);
        };
        run.put("round", r + 1);
        emit(run, resultsFile);
        runs.add(run);
      }
    }
    Map<String, Object> summary = MedallionSummary.of(runs, xmx);
    summary.put("data", data.toString());
    summary.put("events", eventsOf(data));
    summary.put("results_file", resultsFile.toString());
    emit(summary, resultsFile);
    System.err.println("bench: results in " + resultsFile);
    return runs.stream().allMatch(r -> Boolean.TRUE.equals(r.get("succeeded"))) ? 0 : 1;
  }

  private Map<String, Object> sluice(Path repo, Path data, Path dir) throws IOException, InterruptedException {
    Path warehouse = dir.resolve("sluice-warehouse");
    deleteTree(warehouse);
    Path report = dir.resolve("sluice-report.json");
    Files.deleteIfExists(report);
    Path config = repo.resolve("examples/orders/pipelines.yaml");
    String javaOpts = ("-Xmx" + xmx + " " + sluiceJavaOpts).strip();
    List<String> cli = List.of("run", config.toString(), "--available-now", "--report-json", report.toString());
    List<String> command = new ArrayList<>();
    if (sluiceClasspath != null) {
      command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(List.of(javaOpts.split("\\s+")));
      command.addAll(List.of("-cp", sluiceClasspath, "dev.sluice.orchestration.cli.SluiceCli"));
    } else {
      command.add(repo.resolve("sluice").toString());
    }
    command.addAll(cli);
    Map<String, String> env = Map.of("ORDERS_INPUT", data.resolve("input").toString(),
        "CUSTOMERS_INPUT", data.resolve("customers").toString(),
        "SLUICE_WAREHOUSE", warehouse.toUri().toString(), "SLUICE_JAVA_OPTS", javaOpts);
    ChildRun.Result r = ChildRun.run("sluice", command, env, repo, dir);
    Map<String, Object> run = common("sluice", r);
    run.put("xmx", xmx);
    if (Files.isRegularFile(report)) {
      JsonNode rep = JSON.readTree(report.toFile());
      run.put("in_process_wall_ms", rep.path("wall_ms").asLong());
      run.put("peak_heap_used_mb", rep.path("peak_heap_used_mb").asLong());
      run.put("heap_max_mb", rep.path("heap_max_mb").asLong());
      run.put("gc_ms", rep.path("gc_ms").asLong());
      List<Map<String, Object>> stages = new ArrayList<>();
      for (JsonNode s : rep.path("stages")) {
        Map<String, Object> stage = new LinkedHashMap<>();
        for (String k : List.of("pipeline", "layer", "batches", "rows_in", "wall_ms", "cpu_ms", "cpu_per_wall",
            "rows_per_s", "gc_ms", "peak_heap_used_mb", "ledger")) {
          stage.put(k, JSON.treeToValue(s.path(k), Object.class));
        }
        stages.add(stage);
      }
      run.put("stages", stages);
    } else if (r.succeeded()) {
      run.put("succeeded", false);
      run.put("error", "no report written to " + report);
    }
    if (!keep) {
      deleteTree(warehouse);
    }
    return run;
  }

  private Map<String, Object> spark(Path home, Path data, Path dir) throws IOException, InterruptedException {
    Path out = dir.resolve("spark-run");
    deleteTree(out);
    List<String> command = new ArrayList<>(SparkBaseline.runCommand(home, data, out));
    command.addAll(sparkArgs);
    ChildRun.Result r = ChildRun.run("spark", command, Map.of(), home, dir);
    Map<String, Object> run = common("spark", r);
    JsonNode initial = null;
    for (String line : r.stdoutText().split("\n")) {
      if (line.startsWith("{") && JSON.readTree(line).path("phase").asText().equals("initial")) {
        initial = JSON.readTree(line);
      }
    }
    if (initial != null) {
      run.put("in_process_wall_ms", initial.path("total_wall_ms").asLong());
      run.put("in_process_cpu_ms", initial.path("total_cpu_ms").asLong());
      run.put("peak_heap_used_mb", initial.path("peak_heap_used_mb").asLong());
      run.put("gc_ms", initial.path("gc_ms").asLong());
      List<Map<String, Object>> stages = new ArrayList<>();
      initial.path("stages").fields().forEachRemaining(e -> {
        Map<String, Object> stage = new LinkedHashMap<>();
        long wall = e.getValue().path("wall_ms").asLong();
        long cpu = e.getValue().path("cpu_ms").asLong();
        stage.put("pipeline", e.getKey());
        stage.put("layer", e.getKey());
        stage.put("rows_in", e.getValue().path("input_rows").asLong());
        stage.put("wall_ms", wall);
        stage.put("cpu_ms", cpu);
        stage.put("cpu_per_wall", wall == 0 ? 0 : Math.round(cpu * 100.0 / wall) / 100.0);
        stage.put("rows_per_s", Math.round(e.getValue().path("rows_per_s").asDouble()));
        stages.add(stage);
      });
      run.put("stages", stages);
    } else if (r.succeeded()) {
      run.put("succeeded", false);
      run.put("error", "no phase=initial line on the Spark baseline's output " + r.stdout());
    }
    if (!keep) {
      deleteTree(out);
    }
    return run;
  }

  private Map<String, Object> duckdb(Path repo, Path data, Path dir) throws IOException, InterruptedException {
    Path out = dir.resolve("duckdb-out");
    deleteTree(out);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), DuckDbMedallion.class.getName(),
        data.toString(), out.toString()));
    Path shared = sparkHome != null ? sparkHome : SparkBaseline.locate(repo).orElse(null);
    if (shared == null || !Files.isRegularFile(shared.resolve("duckdb/medallion.sql"))) {
      throw new IllegalStateException("DuckDB's reference is shared/spark-baseline/duckdb/medallion.sql beside the"
          + " checkout, and it is not there" + (shared == null ? "" : " (looked in " + shared + ")")
          + ": pass --spark-home DIR, or --skip-duckdb");
    }
    command.add(shared.resolve("duckdb/medallion.sql").toString());
    ChildRun.Result r = ChildRun.run("duckdb", command, Map.of(), repo, dir);
    Map<String, Object> run = common("duckdb", r);
    if (r.succeeded()) {
      JsonNode sql = JSON.readTree(r.stdoutText());
      sql.fields().forEachRemaining(e -> run.put(e.getKey(), e.getValue().asLong()));
    }
    if (!keep) {
      deleteTree(out);
    }
    return run;
  }

  private static Map<String, Object> common(String engine, ChildRun.Result r) throws IOException {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("benchmark", "medallion_run");
    run.put("engine", engine);
    run.put("succeeded", r.succeeded());
    run.put("exit_code", r.exitCode());
    run.put("wall_ms", r.wallMs());
    run.put("cpu_ms", r.cpuMs());
    run.put("user_ms", r.userMs());
    run.put("sys_ms", r.sysMs());
    run.put("cpu_per_wall", r.cpuMs() < 0 || r.wallMs() == 0 ? -1 : Math.round(r.cpuMs() * 100.0 / r.wallMs()) / 100.0);
    run.put("peak_rss_mb", r.peakRssMb());
    run.put("other_processes_cpu_ms", r.otherCpuMs());
    if (!r.succeeded()) {
      run.put("error", r.stderrTail());
    }
    run.put("log", r.stdout().toString());
    return run;
  }

  private Path resolveSpark(Path repo) throws IOException, InterruptedException {
    Path home = sparkHome != null ? sparkHome.toAbsolutePath() : SparkBaseline.locate(repo).orElse(null);
    if (home == null) {
      if (!skipSpark || generator.equals("spark")) {
        throw new IllegalStateException("The Spark baseline was not found: no shared/spark-baseline beside "
            + repo + " or its parent folders; point --spark-home at one, or pass --skip-spark");
      }
      return null;
    }
    return SparkBaseline.builtCopy(home, work);
  }

  private void ensureData(Path data, Path spark) throws IOException, InterruptedException {
    if (hasInput(data)) {
      return;
    }
    boolean useSpark = generator.equals("spark") || (generator.equals("auto") && spark != null);
    System.err.println("bench: generating " + events + " events into " + data + " ("
        + (useSpark ? "the Spark baseline's generator" : "Sluice's OrdersGenerator") + ")...");
    if (useSpark) {
      SparkBaseline.generate(spark, data, events);
    } else {
      // The same format (shared/bench/ORDERS-FORMAT.md) and layout as the baseline's, other random draws.
      int files = (int) Math.max(1, Math.min(200, events / 1_000));
      OrdersGenerator g = new OrdersGenerator(42);
      g.writeOrders(data.resolve("input"), 0, files, (int) (events / files));
      g.writeCustomers(data.resolve("customers"), 10_000);
    }
  }

  private static boolean hasInput(Path data) throws IOException {
    if (!Files.isDirectory(data.resolve("input"))) {
      return false;
    }
    try (Stream<Path> s = Files.list(data.resolve("input"))) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(".jsonl"));
    }
  }

  private long eventsOf(Path data) throws IOException {
    Path manifest = data.resolve("manifest.json");
    return Files.isRegularFile(manifest) ? JSON.readTree(manifest.toFile()).path("events").asLong(events) : events;
  }

  private static void emit(Map<String, Object> object, Path resultsFile) throws IOException {
    String line = JSON.writeValueAsString(object);
    System.out.println(line);
    Files.writeString(resultsFile, line + "\n", java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
