package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TriggerConfig;
import dev.sluice.orchestration.service.ServiceOptions;
import dev.sluice.orchestration.service.SluiceService;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice serve}: the service — Quartz fires scheduled pipelines, processing-time pipelines run continuously. */
@Command(name = "serve", header = "Run the service: scheduled and continuous pipelines until stopped.",
    description =
    "Quartz fires each pipeline's schedule as an availableNow run (never overlapping itself; pipelines with"
    + " 'after' run when their upstreams succeeded); pipelines with a processing_time trigger run continuously."
    + " Failed runs are retried (3 attempts, backoff from 1 s) and recorded for 'sluice status'. Ctrl-C or"
    + " SIGTERM stops gracefully: every query finishes or abandons its current batch, nothing half-committed."
    + " With a 'service:' section, nodes on the same PostgreSQL form a Quartz cluster: each fire runs on one node,"
    + " and a dead node's runs are fired again on another.")
final class ServeCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Override
  public Integer call() {
    SluiceConfig c = Pipelines.load(config);
    Terminal t = root.terminal();
    try (SluiceService service = SluiceService.start(c, ServiceOptions.defaults()).stopOnShutdown()) {
      for (PipelineConfig p : c.pipelines()) {
        String how = p.trigger() instanceof TriggerConfig.ProcessingTime pt ? "continuous, every " + pt.interval().text()
            : p.schedule().isPresent() ? "scheduled, next " + service.nextFire(p.name()).map(Object::toString).orElse("-")
            : !p.after().isEmpty() ? "after " + String.join(", ", p.after())
            : "not scheduled (run it with 'sluice run')";
        t.info("  " + p.name() + ": " + how);
      }
      if (service.clustered()) {
        t.info("Node " + service.node() + " of the cluster on " + c.service().orElseThrow().jobStore().url()
            + ": each fire runs on one node; 'sluice runs " + config + "' shows every node's runs.");
      }
      t.info("Serving " + c.pipelines().size() + " pipelines; Ctrl-C or SIGTERM stops.");
      service.awaitStop();
    }
    return ExitCodes.OK;
  }
}
