package dev.sluice.orchestration.cli;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.validate.PlanCheck;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice validate}: checks a config and reports every problem at once. */
@Command(name = "validate", header = "Check a config file and report every problem.",
    description =
    "Check a config file: every problem at once, each with its YAML path and line (exit code 2 when "
    + "any). Expressions, column names and source options are bound against the schema each pipeline will "
    + "see, derived from the config; process.class is loaded (from --jars and the plugins/ folder beside "
    + "the config) and its output schema is what the rest of its pipeline is checked against.")
final class ValidateCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Option(names = "--jars", paramLabel = "JAR", split = ",",
      description = "Jars holding the processors named by process.class, as for sluice run.")
  java.util.List<Path> jars = new java.util.ArrayList<>();

  @Override
  public Integer call() {
    SluiceConfig c;
    PlanCheck plan;
    try (SluiceSession session = SluiceSession.builder().pluginClassLoader(Pipelines.plugins(config, jars)).build()) {
      plan = new PlanCheck(session);
      c = ConfigLoader.load(config, System.getenv(), plan);
    }
    Terminal t = root.terminal();
    t.result("OK: " + c.pipelines().size() + (c.pipelines().size() == 1 ? " pipeline" : " pipelines"));
    plan.notes().forEach(n -> t.info("  note: " + n));
    for (PipelineConfig p : Pipelines.withUpstreams(c, java.util.List.of())) {
      t.info("  " + p.name() + " (" + p.layer().name().toLowerCase(java.util.Locale.ROOT) + ") -> "
          + c.tableUri(p.sink().table()));
    }
    return ExitCodes.OK;
  }
}
