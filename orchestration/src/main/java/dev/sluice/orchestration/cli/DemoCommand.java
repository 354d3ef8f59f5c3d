package dev.sluice.orchestration.cli;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sluice demo}: the orders example on a local warehouse under one folder. The first run lands the
 * bundled sample and runs bronze → silver → gold; each further run lands the next file and runs again,
 * so the output shows the incremental result.
 */
@Command(name = "demo", header = "Run the orders example on a local warehouse.",
    description =
    "Run the orders example (landing files -> bronze -> silver -> gold) on a local warehouse in DIR, "
    + "print the gold table and the row ledger, and suggest commands to try next. Run it again: it "
    + "lands one more file and processes only that.")
final class DemoCommand implements Callable<Integer> {
  private static final int GOLD_ROWS_SHOWN = 12;

  @ParentCommand
  SluiceCli root;

  @Option(names = {"-d", "--dir"}, paramLabel = "DIR", description = "Where to put it (default ${DEFAULT-VALUE}).")
  Path dir = Path.of("sluice-demo");

  @Override
  public Integer call() {
    Terminal t = root.terminal();
    DemoFiles files = new DemoFiles(dir.toAbsolutePath().normalize());
    List<String> landed = files.land();
    Path configFile = files.writeConfig();
    SluiceConfig config = ConfigLoader.load(configFile, Map.of());
    t.info("Sluice demo in " + files.root());
    t.info("  landing files:  " + files.orders() + (landed.size() == 1 ? "  (new: " + landed.get(0) + ")"
        : "  (" + landed.size() + " files of the orders sample)"));
    t.info("  customers:      " + files.customers());
    t.info("  warehouse:      " + config.warehouse());
    t.info("  config:         " + configFile);
    t.info("");
    List<PipelineRuns.Outcome> outcomes;
    try (PipelineRuns runs = new PipelineRuns(config, t)) {
      outcomes = runs.runAvailableNow(Pipelines.withUpstreams(config, List.of()));
      if (outcomes.stream().anyMatch(o -> !o.succeeded())) {
        throw CliException.failed("the demo's pipelines failed (see above); rerun with --verbose for details, or"
            + " delete " + files.root() + " to start over");
      }
      t.result("");
      printLedger(t, outcomes);
      t.result("");
      printGold(t, config, runs);
    }
    printNext(t, dir);
    return ExitCodes.OK;
  }

  private static void printLedger(Terminal t, List<PipelineRuns.Outcome> outcomes) {
    t.result("Row ledger of this run (rows in = written + deduplicated + late + quarantined + filtered + dropped):");
    List<String> headers = new ArrayList<>(List.of("pipeline", "batches", "rows in"));
    headers.addAll(Ledger.OUTCOMES);
    TextTable table = new TextTable(headers);
    for (PipelineRuns.Outcome o : outcomes) {
      List<String> row = new ArrayList<>(List.of(o.pipeline(), Values.count(o.batches()),
          Values.count(o.ledger().getOrDefault("rowsIn", o.rowsIn()))));
      for (String k : Ledger.OUTCOMES) {
        row.add(Values.count(o.ledger().getOrDefault(k, 0L)));
      }
      table.add(row);
    }
    table.render().forEach(l -> t.result("  " + l));
  }

  private static void printGold(Terminal t, SluiceConfig config, PipelineRuns runs) {
    PipelineConfig gold = config.pipelines().stream().filter(p -> p.layer() == dev.sluice.config.Layer.GOLD)
        .reduce((a, b) -> b).orElseThrow();
    Table table = runs.session().table(Pipelines.tableUri(config, gold));
    StructType schema = table.latestSnapshot().schema();
    List<String> columns = List.of("window_start", "window_end", "tier", "revenue", "orders");
    int[] at = columns.stream().mapToInt(schema::indexOf).toArray();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = table.latestSnapshot().scan().build().rows()) {
      it.forEachRemaining(rows::add);
    }
    rows.sort(Comparator.comparing((Row r) -> (Instant) r.get(at[0])).reversed()
        .thenComparing(r -> String.valueOf(r.get(at[2]))));
    t.result(gold.sink().table() + " (version " + table.latestVersion().orElse(-1) + ", " + Values.count(rows.size())
        + " rows: revenue and orders per customer tier and 1-minute window; the latest " + GOLD_ROWS_SHOWN + "):");
    TextTable out = new TextTable(columns);
    for (Row r : rows.subList(0, Math.min(GOLD_ROWS_SHOWN, rows.size()))) {
      Object revenue = r.get(at[3]);
      out.add(List.of(String.valueOf(r.get(at[0])), String.valueOf(r.get(at[1])), String.valueOf(r.get(at[2])),
          revenue instanceof Number n ? String.format(java.util.Locale.ROOT, "%.2f", n.doubleValue())
              : String.valueOf(revenue), String.valueOf(r.get(at[4]))));
    }
    out.render().forEach(l -> t.result("  " + l));
    Map<String, String> last = table.history(1).get(0).operationMetrics();
    if (last.containsKey("numTargetRowsInserted")) {
      t.result("  this run: " + last.get("numTargetRowsInserted") + " gold rows added, "
          + last.getOrDefault("numTargetRowsUpdated", "0") + " updated, " + last.getOrDefault("numTargetRowsDeleted", "0")
          + " deleted (every window the new rows touch is recomputed exactly)");
    }
  }

  private static void printNext(Terminal t, Path dir) {
    String config = dir.resolve("pipelines.yaml").toString();
    t.info("");
    t.info("Try next:");
    t.info("  ./sluice status " + config + "                  # last batch, watermark, ledger per pipeline");
    t.info("  ./sluice read gold/revenue --config " + config + " --where \"tier = 'premium'\"");
    t.info("  ./sluice read silver/orders --config " + config + " --format json --limit 5");
    t.info("  ./sluice history silver/orders --config " + config + "  # one MERGE per batch, with its ledger");
    t.info("  ./sluice tables " + config);
    t.info("  ./sluice demo" + (dir.equals(Path.of("sluice-demo")) ? "" : " --dir " + dir)
        + "                                       # lands one more file and runs incrementally");
  }
}
