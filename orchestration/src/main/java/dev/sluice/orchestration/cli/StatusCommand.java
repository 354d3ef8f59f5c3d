package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.Sessions;
import dev.sluice.orchestration.service.RunRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice status}: per pipeline, its last batch from the checkpoint and its table's last commit. */
@Command(name = "status", header = "Show each pipeline's last batch, table version and ledger.",
    description =
    "Per pipeline: its last batch from the checkpoint (id, time, watermark, a batch planned but not "
    + "committed), its table's latest version with the row ledger of that commit, and the state the "
    + "checkpoint keeps; the last service run of each pipeline (with a 'service:' section: from the cluster's run"
    + " history, with the latest runs of every node).")
final class StatusCommand implements Callable<Integer> {
  private static final int RECENT_RUNS = 10;

  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Option(names = "--json", description = "Print JSON (an array, one object per pipeline).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    SluiceConfig c = Pipelines.load(config);
    List<PipelineStatus> statuses = new ArrayList<>();
    List<RunRecord> recent;
    boolean clustered;
    try (RunHistories histories = RunHistories.open(c); SluiceSession session = Sessions.forConfig(c)) {
      clustered = histories.clustered();
      for (PipelineConfig p : Pipelines.withUpstreams(c, List.of())) {
        statuses.add(PipelineStatus.read(session, c, p, histories.last(session, p)));
      }
      recent = clustered ? histories.recent(session, Optional.empty(), RECENT_RUNS) : List.of();
    }
    Terminal t = root.terminal();
    if (json) {
      t.result(Values.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT)
          .writeValueAsString(statuses));
      return ExitCodes.OK;
    }
    TextTable table = new TextTable(List.of("pipeline", "layer", "batch", "batch time", "watermark", "version",
        "rows in", "ledger", "state"));
    for (PipelineStatus s : statuses) {
      table.add(List.of(s.pipeline(), s.layer(),
          s.lastBatch() == null ? "-" : s.lastBatch() + (s.uncommittedBatch() != null ? " (+" + s.uncommittedBatch()
              + " pending)" : ""),
          time(s.lastBatchTime()), time(s.watermark()),
          s.tableVersion() == null ? "-" : Long.toString(s.tableVersion()),
          s.rowsIn() == null ? "-" : Values.count(s.rowsIn()),
          s.ledger().isEmpty() ? "-" : Ledger.text(s.ledger()),
          s.state() == null ? "-" : s.state().operators() + " op, v" + s.state().version() + ", "
              + (s.state().rows().isEmpty() ? "" : Values.count(s.state().rows().values().stream()
                  .mapToLong(Long::longValue).sum()) + " rows, ") + Values.bytes(s.state().bytes())));
    }
    table.render().forEach(t::result);
    for (PipelineStatus s : statuses) {
      if (s.lastRun() != null) {
        PipelineStatus.LastRun r = s.lastRun();
        t.result(s.pipeline() + ": last service run " + r.outcome() + " at " + r.end() + " (" + r.cause()
            + (r.attempt() > 1 ? ", attempt " + r.attempt() : "") + (clustered ? ", node " + r.node() : "") + ")"
            + (r.error() == null ? "" : ": " + r.error()));
      }
    }
    if (!recent.isEmpty()) {
      t.result("");
      t.result("Latest runs of the cluster (sluice runs " + config + " for more):");
      RunsCommand.table(recent).render().forEach(t::result);
    }
    if (statuses.stream().allMatch(s -> s.lastBatch() == null)) {
      t.info("No pipeline has run yet: sluice run " + config + " --available-now");
    }
    return ExitCodes.OK;
  }

  private static String time(String iso) {
    return iso == null ? "-" : iso;
  }
}
