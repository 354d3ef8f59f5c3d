package dev.sluice.orchestration.cli;

import dev.sluice.table.DataFile;
import dev.sluice.table.Repair;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice fsck}: removes from a table the data files its log references that no longer exist. */
@Command(name = "fsck", header = "Remove a table's missing data files from its log (FSCK REPAIR TABLE).",
    description = "Checks that every data file of the table's latest version exists and commits the removal of "
    + "those that don't, so the table reads again (without their rows). --dry-run only lists them.")
final class FsckCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<table>",
      description = "A table of the --config file (e.g. bronze/orders) or a path / file: / s3: URI.")
  String table;

  @Option(names = {"-c", "--config"}, paramLabel = "<file>", description = "The config whose table names to use.")
  Path config;

  @Option(names = "--dry-run", description = "List the missing files and the rows they held; change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    Terminal t = root.terminal();
    try (TableRef ref = TableRef.open(table, config)) {
      Repair.Result r = ref.table().newRepair().dryRun(dryRun).execute();
      List<DataFile> missing = r.missingFiles();
      if (missing.isEmpty()) {
        t.result("No missing data files: all files of " + ref.label() + " version " + r.readVersion() + " exist.");
        return ExitCodes.OK;
      }
      TextTable files = new TextTable(List.of("missing file", "rows"));
      for (DataFile f : missing) {
        files.add(List.of(f.logPath(), rows(f.numRecords())));
      }
      files.render().forEach(t::result);
      String what = Values.count(missing.size()) + " missing data file" + (missing.size() == 1 ? "" : "s") + " ("
          + rows(r.missingRows()) + " rows)";
      if (r.dryRun()) {
        t.result("Dry run: " + what + " in " + ref.label() + " version " + r.readVersion()
            + "; nothing changed. Restore them, or remove them from the table: sluice fsck " + table
            + (config == null ? "" : " --config " + config));
      } else {
        t.result("Removed " + what + " from " + ref.label() + " in version " + r.committedVersion().getAsLong()
            + "; those rows are no longer in the table.");
      }
    }
    return ExitCodes.OK;
  }

  private static String rows(OptionalLong n) {
    return n.isPresent() ? Values.count(n.getAsLong()) : "unknown";
  }
}
