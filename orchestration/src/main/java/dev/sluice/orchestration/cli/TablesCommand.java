package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.Sessions;
import dev.sluice.table.DataFile;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice tables}: the tables each pipeline writes, with version, files and rows. */
@Command(name = "tables", header = "List the tables the pipelines write.",
    description =
    "The tables each pipeline writes (sink, quarantine, late rows): name, URI, version, files, rows, "
    + "size.")
final class TablesCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<config>", description = "The pipelines YAML file.")
  Path config;

  @Override
  public Integer call() {
    SluiceConfig c = Pipelines.load(config);
    TextTable out = new TextTable(List.of("pipeline", "table", "version", "files", "rows", "size", "uri"));
    try (SluiceSession session = Sessions.forConfig(c)) {
      for (PipelineConfig p : Pipelines.withUpstreams(c, List.of())) {
        for (String name : Pipelines.tablesOf(p)) {
          Table t = session.table(c.tableUri(name).toString());
          boolean sink = name.equals(p.sink().table());
          if (!t.exists()) {
            if (sink) {
              out.add(List.of(p.name(), name, "-", "-", "-", "-", t.uri().toString()));
            }
            continue;
          }
          Snapshot s = t.latestSnapshot();
          List<DataFile> files = s.files();
          long bytes = files.stream().mapToLong(DataFile::size).sum();
          out.add(List.of(p.name(), name, Long.toString(s.version()), Values.count(files.size()),
              s.numRecords().isPresent() ? Values.count(s.numRecords().getAsLong()) : "?", Values.bytes(bytes),
              t.uri().toString()));
        }
      }
    }
    out.render().forEach(root.terminal()::result);
    return ExitCodes.OK;
  }
}
