package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TriggerConfig;
import dev.sluice.orchestration.http.HttpOptions;
import dev.sluice.orchestration.http.ServiceView;
import dev.sluice.orchestration.http.SluiceHttpServer;
import dev.sluice.orchestration.service.ServiceOptions;
import dev.sluice.orchestration.service.SluiceService;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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
    + " and a dead node's runs are fired again on another."
    + " The HTTP API, /metrics and the dashboard listen on --http; an address beyond loopback needs the token"
    + " in SLUICE_API_TOKEN (clients send 'Authorization: Bearer <token>').")
final class ServeCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Option(names = "--http", paramLabel = "HOST:PORT", defaultValue = HttpOptions.DEFAULT_ADDRESS,
      description = "Where the HTTP API, /metrics and the dashboard listen (default ${DEFAULT-VALUE}; port 0 picks"
          + " a free one; 'off' serves no HTTP). Beyond loopback, SLUICE_API_TOKEN must be set.")
  String http;

  @Option(names = "--jars", paramLabel = "JAR", split = ",",
      description = "Jars holding the processors named by process.class, as for sluice run (the jars of a plugins/"
          + " folder beside the config file are added too).")
  java.util.List<Path> jars = new java.util.ArrayList<>();

  @Override
  public Integer call() {
    SluiceConfig c = Pipelines.load(config);
    Terminal t = root.terminal();
    Optional<HttpOptions> httpOptions = httpOptions();
    // The session outlives the service (closed last): it holds the class loader of the pipelines' processors.
    try (dev.sluice.ingestion.SluiceSession session = dev.sluice.orchestration.Sessions.builder(c)
            .pluginClassLoader(Pipelines.plugins(config, jars)).build();
        SluiceService service = SluiceService.start(c, session, ServiceOptions.defaults()).stopOnShutdown();
        SluiceHttpServer server = httpOptions.map(o -> SluiceHttpServer.start(ServiceView.of(service), o))
            .orElse(null)) {
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
      if (server != null) {
        t.info("HTTP API, metrics and dashboard on " + server.uri());
      }
      t.info("Serving " + c.pipelines().size() + " pipelines; Ctrl-C or SIGTERM stops.");
      service.awaitStop();
    }
    return ExitCodes.OK;
  }

  /** Checked before the service starts, so that a refused address starts nothing. */
  private Optional<HttpOptions> httpOptions() {
    if (http.equalsIgnoreCase("off")) {
      return Optional.empty();
    }
    try {
      return Optional.of(HttpOptions.of(http, Optional.ofNullable(System.getenv(HttpOptions.TOKEN_ENV))));
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
  }
}
