package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.table.HistoryEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice history}: a table's versions, newest first, with each commit's operation and metrics. */
@Command(name = "history", header = "Show a table's commits with their metrics.",
    description = "A table's commits, newest first: version, time, operation and metrics "
    + "(the row ledger first; metrics that are 0 are left out unless --json).")
final class HistoryCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<table>",
      description = "A table of the --config file (e.g. gold/revenue) or a path / file: / s3: URI.")
  String table;

  @Option(names = {"-c", "--config"}, paramLabel = "<file>", description = "The config whose table names to use.")
  Path config;

  @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most N versions (default ${DEFAULT-VALUE}).")
  int limit = 20;

  @Option(names = "--json", description = "Print JSON lines, one commit per line.")
  boolean json;

  @Override
  public Integer call() {
    if (limit < 1) {
      throw CliException.usage("--limit must be at least 1, got " + limit);
    }
    Terminal t = root.terminal();
    try (TableRef ref = TableRef.open(table, config)) {
      List<HistoryEntry> history = ref.table().history(limit);
      if (json) {
        for (HistoryEntry h : history) {
          ObjectNode o = Values.JSON.createObjectNode();
          o.put("version", h.version());
          o.put("timestamp", h.timestamp() == null ? null : h.timestamp().toString());
          o.put("operation", h.operation());
          ObjectNode m = o.putObject("operationMetrics");
          ordered(h.operationMetrics()).forEach(m::put);
          ObjectNode params = o.putObject("operationParameters");
          h.operationParameters().forEach(params::put);
          t.result(o.toString());
        }
        return ExitCodes.OK;
      }
      TextTable out = new TextTable(List.of("version", "time", "operation", "metrics"));
      for (HistoryEntry h : history) {
        List<String> metrics = new ArrayList<>();
        // zeros left out to keep the line readable; --json has every metric
        ordered(h.operationMetrics()).forEach((k, v) -> {
          if (!v.equals("0") || k.equals(Ledger.PREFIX + "rowsIn")) {
            metrics.add(k + "=" + v);
          }
        });
        out.add(List.of(Long.toString(h.version()), h.timestamp() == null ? "-" : h.timestamp().toString(),
            h.operation() == null ? "-" : h.operation(), String.join(" ", metrics)));
      }
      out.render().forEach(t::result);
    }
    return ExitCodes.OK;
  }

  /** The ledger first (in its order), then the other metrics by name. */
  private static Map<String, String> ordered(Map<String, String> metrics) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (String k : Ledger.of(metrics).keySet()) {
      out.put(Ledger.PREFIX + k, metrics.get(Ledger.PREFIX + k));
    }
    new TreeMap<>(metrics).forEach(out::putIfAbsent);
    return out;
  }
}
