package dev.sluice.orchestration.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.orchestration.diagnose.BacklogProbe;
import dev.sluice.orchestration.diagnose.Diagnostics;
import dev.sluice.orchestration.diagnose.Finding;
import dev.sluice.orchestration.diagnose.PipelineDiagnosis;
import dev.sluice.orchestration.diagnose.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice diagnose}: what each pipeline would meet if it started now, read without changing anything. */
@Command(name = "diagnose", header = "Check each pipeline before it runs; change nothing.",
    description = "Per pipeline: whether the config's stateful plan fits the checkpoint (the differences, as the "
    + "start-up check lists them), who holds the runner lease and whether that process is alive, a batch planned "
    + "but not committed, whether the source is reachable and its backlog, the tables' protocol and features, "
    + "data files (small ones), log length, orphan files, and the state per operator. Exit code 0: all fine, "
    + "1: warnings, 2: errors (or a bad config).")
final class DiagnoseCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Option(names = "--pipeline", paramLabel = "NAME", description = "Diagnose only this pipeline (repeatable).")
  List<String> pipelines = new ArrayList<>();

  @Option(names = "--json", description = "Print JSON (an array, one object per pipeline).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    SluiceConfig c = Pipelines.load(config);
    List<PipelineConfig> chosen = new ArrayList<>();
    for (String name : pipelines) {
      chosen.add(c.pipelines().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(
          () -> CliException.usage("No pipeline " + name + " in " + config + "; its pipelines: "
              + c.pipelines().stream().map(PipelineConfig::name).toList())));
    }
    if (chosen.isEmpty()) {
      chosen.addAll(c.pipelines());
    }
    List<PipelineDiagnosis> results = new ArrayList<>();
    Severity worst = Severity.OK;
    BacklogProbe probe = (session, p) -> {
      Backlog b = Backlog.of(session, c, p);
      return new BacklogProbe.Backlog(b.unit(), b.total(), b.note());
    };
    try (Diagnostics d = new Diagnostics(c, probe)) {
      for (PipelineConfig p : chosen) {
        PipelineDiagnosis r = d.diagnose(p);
        results.add(r);
        worst = worst.worse(r.severity());
      }
    }
    Terminal t = root.terminal();
    if (json) {
      t.result(Values.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(results));
      return worst.exitCode();
    }
    TextTable table = new TextTable(List.of("pipeline", "check", "subject", "result", "finding"));
    for (PipelineDiagnosis r : results) {
      for (Finding f : r.findings()) {
        table.add(List.of(r.pipeline(), f.check(), f.subject().isEmpty() ? "-" : f.subject(),
            f.severity().name().toLowerCase(Locale.ROOT), f.message()));
      }
    }
    table.render().forEach(t::result);
    long warnings = results.stream().flatMap(r -> r.findings().stream())
        .filter(f -> f.severity() == Severity.WARNING).count();
    long errors = results.stream().flatMap(r -> r.findings().stream())
        .filter(f -> f.severity() == Severity.ERROR).count();
    t.info(results.size() + " pipeline" + (results.size() == 1 ? "" : "s") + ": " + errors + " error"
        + (errors == 1 ? "" : "s") + ", " + warnings + " warning" + (warnings == 1 ? "" : "s"));
    return worst.exitCode();
  }
}
