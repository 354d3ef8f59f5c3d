package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice run}: runs pipelines of a config (and their upstreams) in dependency order. */
@Command(name = "run", header = "Run pipelines of a config in dependency order.",
    description =
    "Run pipelines (and the pipelines they depend on) in dependency order, each as a streaming "
    + "query. With --available-now each processes its backlog and stops; the exit code says whether "
    + "all succeeded. Without it each runs with its configured trigger: available_now/once pipelines "
    + "finish, processing_time pipelines run until Ctrl-C or SIGTERM, which stop every query at a "
    + "batch boundary. Classes named by process.class are loaded from --jars and from the jars of the "
    + "plugins/ folder beside the config file.")
final class RunCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Option(names = {"-p", "--pipeline"}, paramLabel = "NAME", split = ",",
      description = "Run only these pipelines and their upstreams (repeatable or comma-separated; default: all).")
  List<String> pipelines = new ArrayList<>();

  @Option(names = "--available-now", description = "Process what is available now, then stop.")
  boolean availableNow;

  @Option(names = "--wait", arity = "0..1", paramLabel = "DURATION", fallbackValue = "5 minutes",
      description = "When another live process is running a pipeline's query, wait for it (up to DURATION, "
          + "default 5 minutes) instead of failing. A runner on this host that died (kill -9) is taken over at once.")
  String waitFor;

  @Option(names = "--report-json", paramLabel = "FILE",
      description = "When the run ends, write per-pipeline wall and CPU time, rows and the peak used heap "
      + "(sampled every 20 ms) to FILE as JSON (for benchmarks).")
  Path reportJson;

  @Option(names = "--jars", paramLabel = "JAR", split = ",",
      description = "Jars holding the processors named by process.class (comma-separated or repeated); the jars "
          + "of a plugins/ folder beside the config file are added too.")
  List<Path> jars = new ArrayList<>();

  @Override
  public Integer call() {
    Terminal terminal = root.terminal();
    ShortRunCompiler.Mode compilerMode = ShortRunCompiler.mode();
    SluiceConfig c = Pipelines.load(config);
    List<PipelineConfig> selected = Pipelines.withUpstreams(c, pipelines);
    List<PipelineRuns.Outcome> outcomes;
    java.time.Duration wait = waitFor == null ? java.time.Duration.ZERO : waitDuration();
    try (PipelineRuns runs = new PipelineRuns(c, terminal, wait, Pipelines.plugins(config, jars))) {
      boolean finite = availableNow || selected.stream().allMatch(p -> PipelineRuns.trigger(p.trigger()).isFinite());
      java.util.concurrent.CompletableFuture<Boolean> quick = java.util.concurrent.CompletableFuture.completedFuture(false);
      if (CompilerRestart.startedQuick()) {
        // C1 only already: a run that is not short must not stay so, and nothing has run yet. Closed first, so that a
        // SIGTERM passed on to the second JVM is not also announced here by this one's stop hook.
        if (!finite || !ShortRunCompiler.wantsQuick(compilerMode, selected, runs::backlog)) {
          boolean medium = finite && compilerMode == ShortRunCompiler.Mode.AUTO
              && ShortRunCompiler.isMedium(selected, runs::backlog);
          runs.close();
          return CompilerRestart.runWithFullCompiler(medium ? ShortRunCompiler.MEDIUM_RUN_OPTIONS : List.of());
        }
        quick = java.util.concurrent.CompletableFuture.completedFuture(true);
      } else if (finite) {
        quick = ShortRunCompiler.applyInBackground(compilerMode, selected, runs::backlog);
      }
      if (finite) {
        TablePrefetch.startInBackground(runs.session(), c, selected);
      }
      try (RunReport report = RunReport.open(reportJson, runs.session(), selected)) {
        outcomes = availableNow ? runs.runAvailableNow(selected) : runs.runConfigured(selected);
        report.compiler(quick.join() ? "quick" : CompilerRestart.restartedMedium() ? "medium" : "full");
        report.finish(outcomes);
      }
    }
    long failed = outcomes.stream().filter(o -> !o.succeeded()).count();
    if (failed > 0) {
      terminal.error(failed + " of " + outcomes.size() + " pipelines failed or were not run.");
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }

  private java.time.Duration waitDuration() {
    try {
      return dev.sluice.ingestion.Durations.parse(waitFor, "--wait");
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
  }
}
