package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice validate}: checks a config and reports every problem at once. */
@Command(name = "validate", header = "Check a config file and report every problem.",
    description =
    "Check a config file: every problem at once, each with its YAML path and line (exit code 2 when "
    + "any).")
final class ValidateCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Override
  public Integer call() {
    SluiceConfig c = Pipelines.load(config);
    Terminal t = root.terminal();
    t.result("OK: " + c.pipelines().size() + (c.pipelines().size() == 1 ? " pipeline" : " pipelines"));
    for (PipelineConfig p : Pipelines.withUpstreams(c, java.util.List.of())) {
      t.info("  " + p.name() + " (" + p.layer().name().toLowerCase(java.util.Locale.ROOT) + ") -> "
          + c.tableUri(p.sink().table()));
    }
    return ExitCodes.OK;
  }
}
