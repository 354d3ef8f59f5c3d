package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.Sessions;
import dev.sluice.orchestration.service.RunRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice runs}: the service's run history, newest first. */
@Command(name = "runs", header = "Show the service's runs, newest first.",
    description =
    "With a 'service:' section in the config: the cluster's run history, written by every 'sluice serve' node"
    + " (start, end, cause, node, outcome, batches, rows, ledger, error). Without it: the last run of each pipeline"
    + " that 'sluice serve' recorded beside its checkpoint.")
final class RunsCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Option(names = "--pipeline", paramLabel = "NAME", description = "Only this pipeline's runs.")
  String pipeline;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "At most N runs (default 20).")
  int limit;

  @Option(names = "--json", description = "Print JSON (an array, one object per run).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    SluiceConfig c = Pipelines.load(config);
    if (pipeline != null && c.pipeline(pipeline).isEmpty()) {
      throw CliException.usage("No pipeline named '" + pipeline + "' in " + config + "; the pipelines are "
          + c.pipelines().stream().map(p -> p.name()).toList());
    }
    if (limit < 1) {
      throw CliException.usage("--limit must be at least 1, got " + limit);
    }
    List<RunRecord> runs;
    boolean clustered;
    try (RunHistories histories = RunHistories.open(c); SluiceSession session = Sessions.forConfig(c)) {
      clustered = histories.clustered();
      runs = histories.recent(session, Optional.ofNullable(pipeline), limit);
    }
    Terminal t = root.terminal();
    if (json) {
      t.result(Values.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json(runs)));
      return ExitCodes.OK;
    }
    if (runs.isEmpty()) {
      t.info(clustered ? "The cluster has recorded no run yet" + (pipeline == null ? "" : " of " + pipeline)
          : "No run recorded: 'sluice serve " + config + "' records each pipeline's last run"
              + " (add a 'service:' section for the whole history of every node)");
      return ExitCodes.OK;
    }
    table(runs).render().forEach(t::result);
    runs.stream().filter(r -> r.error().isPresent())
        .forEach(r -> t.result(r.pipeline() + " at " + r.start() + ": " + r.error().get()));
    return ExitCodes.OK;
  }

  /** The runs as {@code sluice runs} and {@code sluice status} print them. */
  static TextTable table(List<RunRecord> runs) {
    TextTable table = new TextTable(List.of("pipeline", "start", "duration", "cause", "node", "outcome", "batches",
        "rows", "ledger"));
    for (RunRecord r : runs) {
      table.add(List.of(r.pipeline(), r.start().toString(), Values.duration(r.duration().toMillis()),
          lower(r.cause()) + (r.attempt() > 1 ? " #" + r.attempt() : ""), r.node(), lower(r.outcome()),
          Values.count(r.batches()), Values.count(r.rows()), r.ledger().isEmpty() ? "-" : Ledger.text(r.ledger())));
    }
    return table;
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static ArrayNode json(List<RunRecord> runs) {
    ArrayNode out = Values.JSON.createArrayNode();
    for (RunRecord r : runs) {
      ObjectNode n = out.addObject();
      n.put("pipeline", r.pipeline());
      n.put("cause", lower(r.cause()));
      n.put("attempt", r.attempt());
      n.put("node", r.node());
      r.scheduledFor().ifPresent(s -> n.put("scheduledFor", s.toString()));
      n.put("start", r.start().toString());
      n.put("end", r.end().toString());
      n.put("outcome", lower(r.outcome()));
      r.error().ifPresent(e -> n.put("error", e));
      n.put("batches", r.batches());
      n.put("rows", r.rows());
      ObjectNode ledger = n.putObject("ledger");
      r.ledger().forEach(ledger::put);
    }
    return out;
  }
}
