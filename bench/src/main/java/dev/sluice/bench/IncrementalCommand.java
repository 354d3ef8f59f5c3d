package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.orchestration.demo.OrdersGenerator;
import dev.sluice.table.DataFile;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import dev.sluice.table.storage.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code bench/incremental.sh}: the +1 % increment of the issue. An initial {@code availableNow} run of the orders
 * medallion over N events, then N/100 more events in 10 files (with updates of earlier orders, from the same
 * generator) and a second run, both whole processes ({@code ./sluice run examples/orders/pipelines.yaml}); with
 * deletion vectors on silver (the example's setting) and off. Prints one JSON object per mode: the increment's
 * wall/CPU time, per layer its wall/CPU time and the bytes it read and wrote ({@code sluice run --report-json}),
 * what silver's MERGE wrote and removed (bytes, files, DVs) against silver's size, and a third run with nothing new.
 * {@code --incr-events} keeps the increment's size fixed while {@code --events} grows the table (criterion 2: the
 * same increment after 2 M and 20 M); {@code --data} runs on the Spark baseline's generated data instead.
 */
@Command(name = "incremental", mixinStandardHelpOptions = true,
    description = "The +1% increment through the orders medallion, deletion vectors on and off; JSON out.")
final class IncrementalCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DVS_ON = "delta.enableDeletionVectors: \"true\"";

  @Option(names = "--events", paramLabel = "N", description = "Initial order events (default ${DEFAULT-VALUE}).")
  long events = 2_000_000;

  @Option(names = "--incr-events", paramLabel = "M", description = "Events of the increment, in 10 files (default: N/100).")
  long incrEvents = -1;

  @Option(names = "--data", paramLabel = "DIR", description = "Use this data (input/, input-incr/, customers/ as "
      + "../shared/spark-baseline's `run.sh gen --out DIR` writes them) instead of generating it.")
  Path sparkData;

  @Option(names = "--xmx", paramLabel = "SIZE", description = "Sluice's heap (default ${DEFAULT-VALUE}).")
  String xmx = "1g";

  @Option(names = "--dvs", paramLabel = "on|off|both", description = "Deletion vectors on silver (default ${DEFAULT-VALUE}).")
  String dvs = "both";

  @Option(names = "--work", paramLabel = "DIR", description = "Data, warehouses and logs (default: <tmpdir>/sluice-bench-incremental).")
  Path work = Path.of(System.getProperty("java.io.tmpdir"), "sluice-bench-incremental");

  @Override
  public Integer call() throws Exception {
    Path repo = Path.of("").toAbsolutePath();
    long increment = incrEvents > 0 ? incrEvents : events / 100;
    Path data = sparkData != null ? sparkData : work.resolve("data-" + events + "-" + increment);
    if (sparkData == null) {
      ensureData(data, increment);
    }
    List<Boolean> modes = switch (dvs) {
      case "on" -> List.of(true);
      case "off" -> List.of(false);
      default -> List.of(true, false);
    };
    for (boolean on : modes) {
      System.out.println(JSON.writeValueAsString(run(repo, data, on)));
    }
    return 0;
  }

  private void ensureData(Path data, long increment) throws IOException {
    if (Files.isDirectory(data.resolve("input-incr"))) {
      return;
    }
    int files = (int) Math.max(1, Math.min(200, events / 1_000));
    OrdersGenerator g = new OrdersGenerator(42);
    g.writeOrders(data.resolve("input"), 0, files, (int) (events / files));
    g.writeOrders(data.resolve("input-incr"), files, 10, (int) Math.max(1, increment / 10));
    g.writeCustomers(data.resolve("customers"), 10_000);
  }

  private Map<String, Object> run(Path repo, Path data, boolean dvsOn) throws Exception {
    Path dir = work.resolve("run-" + events + "-" + (dvsOn ? "dvs" : "cow") + "-" + System.currentTimeMillis());
    Path input = dir.resolve("input");
    Files.createDirectories(input);
    copyAll(data.resolve("input"), input);
    String yaml = Files.readString(repo.resolve("examples/orders/pipelines.yaml"));
    if (!dvsOn) {
      if (!yaml.contains(DVS_ON)) {
        throw new IllegalStateException("examples/orders/pipelines.yaml no longer sets " + DVS_ON + " on silver");
      }
      yaml = yaml.replace(DVS_ON, "delta.enableDeletionVectors: \"false\"");
    }
    Path config = dir.resolve("pipelines.yaml");
    Files.writeString(config, yaml);
    Path warehouse = dir.resolve("warehouse");
    Map<String, String> env = Map.of("ORDERS_INPUT", input.toString(), "CUSTOMERS_INPUT",
        data.resolve("customers").toString(), "SLUICE_WAREHOUSE", warehouse.toUri().toString(), "SLUICE_JAVA_OPTS",
        "-Xmx" + xmx);
    List<String> command = List.of(repo.resolve("sluice").toString(), "run", config.toString(), "--available-now");
    Path report = dir.resolve("increment-report.json");
    List<String> reported = new ArrayList<>(command);
    reported.addAll(List.of("--report-json", report.toString()));
    Path initialReport = dir.resolve("initial-report.json");
    List<String> initialCommand = new ArrayList<>(command);
    initialCommand.addAll(List.of("--report-json", initialReport.toString()));
    ChildRun.Result initial = ChildRun.run("initial", initialCommand, env, repo, dir);
    if (!initial.succeeded()) {
      throw new IllegalStateException("the initial run failed:\n" + initial.stderrTail());
    }
    Table silver = Table.forPath(new LocalObjectStore(warehouse), "silver/orders");
    long silverVersion = silver.latestVersion().orElse(-1);
    long silverBytes = bytes(silver);
    copyAll(data.resolve("input-incr"), input);
    ChildRun.Result incr = ChildRun.run("increment", reported, env, repo, dir);
    if (!incr.succeeded()) {
      throw new IllegalStateException("the incremental run failed:\n" + incr.stderrTail());
    }
    ChildRun.Result idle = ChildRun.run("nothing-new", command, env, repo, dir);
    if (!idle.succeeded()) {
      throw new IllegalStateException("the run with nothing new failed:\n" + idle.stderrTail());
    }
    Map<String, Long> merge = new LinkedHashMap<>();
    for (HistoryEntry h : silver.history(1_000)) {
      if (h.version() <= silverVersion) {
        continue;
      }
      for (String k : List.of("numTargetRowsUpdated", "numTargetRowsInserted", "numTargetRowsCopied",
          "numTargetFilesAdded", "numTargetFilesRemoved", "numTargetDeletionVectorsAdded",
          "numTargetDeletionVectorsRemoved", "numTargetBytesAdded", "numTargetBytesRemoved")) {
        merge.merge(k, Long.parseLong(h.operationMetrics().getOrDefault(k, "0")), Long::sum);
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("bench", "incremental");
    out.put("deletion_vectors", dvsOn);
    out.put("initial_events", events);
    out.put("initial_wall_ms", initial.wallMs());
    out.put("initial_cpu_ms", initial.cpuMs());
    out.put("initial_peak_rss_mb", initial.peakRssMb());
    out.put("initial_peak_heap_used_mb", Files.isRegularFile(initialReport)
        ? JSON.readTree(initialReport.toFile()).path("peak_heap_used_mb").asLong() : -1);
    out.put("increment_wall_ms", incr.wallMs());
    out.put("increment_cpu_ms", incr.cpuMs());
    out.put("increment_peak_rss_mb", incr.peakRssMb());
    out.put("increment_other_cpu_ms", incr.otherCpuMs());
    out.put("increment_layers", layers(report));
    out.put("nothing_new_wall_ms", idle.wallMs());
    out.put("nothing_new_cpu_ms", idle.cpuMs());
    out.put("silver_bytes_before", silverBytes);
    out.put("silver_merge", merge);
    long written = merge.get("numTargetBytesAdded");
    out.put("silver_bytes_written_share", silverBytes == 0 ? 0 : (double) written / silverBytes);
    out.put("xmx", xmx);
    return out;
  }

  /** Per layer of the increment run: wall and CPU ms, bytes read and written, rows in. */
  private static Map<String, Object> layers(Path report) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    if (!Files.isRegularFile(report)) {
      return out;
    }
    for (var stage : JSON.readTree(report.toFile()).path("stages")) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (String k : List.of("wall_ms", "cpu_ms", "rows_in", "read_bytes", "written_bytes")) {
        if (stage.has(k)) {
          m.put(k, stage.path(k).asLong());
        }
      }
      out.put(stage.path("layer").asText(), m);
    }
    return out;
  }

  private static long bytes(Table t) {
    return t.latestSnapshot().files().stream().mapToLong(DataFile::size).sum();
  }

  private static void copyAll(Path from, Path to) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(from)) {
      files = s.sorted(Comparator.naturalOrder()).toList();
    }
    for (Path f : files) {
      Path target = to.resolve(f.getFileName());
      Files.copy(f, target);
      target.toFile().setLastModified(f.toFile().lastModified());
    }
  }
}
