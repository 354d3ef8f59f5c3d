package dev.sluice.orchestration.cli;

import dev.sluice.table.Vacuum;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice vacuum}: deletes the files no version within the retention references. */
@Command(name = "vacuum", header = "Delete files no table version within the retention needs (Delta VACUUM).",
    description = "Deletes data and change-data files removed from the table longer ago than the retention, and files "
    + "no commit references once they are older than it. Never touches _delta_log, _checkpoints or any other _ folder. "
    + "The retention defaults to the table's delta.deletedFileRetentionDuration (7 days); a shorter one needs --force. "
    + "--dry-run lists the files instead.")
final class VacuumCommand implements Callable<Integer> {
  private static final int LISTED = 50;

  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<table>",
      description = "A table of the --config file (e.g. bronze/orders) or a path / file: / s3: URI.")
  String table;

  @Option(names = {"-c", "--config"}, paramLabel = "<file>", description = "The config whose table names to use.")
  Path config;

  @Option(names = "--retain", paramLabel = "DURATION",
      description = "Keep what versions this young need, e.g. 168h or 7d (default: delta.deletedFileRetentionDuration).")
  String retain;

  @Option(names = "--dry-run", description = "List the files that would be deleted; delete nothing.")
  boolean dryRun;

  @Option(names = "--force", description = "Allow a retention shorter than delta.deletedFileRetentionDuration.")
  boolean force;

  @Override
  public Integer call() {
    Terminal t = root.terminal();
    try (TableRef ref = TableRef.open(table, config)) {
      Vacuum v = ref.table().vacuum().dryRun(dryRun).force(force);
      if (retain != null) {
        v.retain(MaintenanceArgs.duration(retain, "--retain"));
      }
      Vacuum.Result r;
      try {
        r = v.execute();
      } catch (dev.sluice.table.exceptions.InvalidOperationException e) {
        throw CliException.usage(e.getMessage());
      }
      String retention = MaintenanceArgs.format(r.retention());
      if (dryRun) {
        r.files().stream().limit(LISTED).forEach(t::result);
        if (r.numFiles() > LISTED) {
          t.result("… and " + Values.count(r.numFiles() - LISTED) + " more");
        }
        t.result("Dry run: " + Values.count(r.numFiles()) + " files (" + Values.bytes(r.bytes()) + ") of " + ref.label()
            + " would be deleted with a retention of " + retention + "; nothing changed.");
      } else {
        t.result("Deleted " + Values.count(r.numFiles()) + " files (" + Values.bytes(r.bytes()) + ") of " + ref.label()
            + " with a retention of " + retention + "; versions since " + r.cutoff() + " stay readable.");
      }
    }
    return ExitCodes.OK;
  }
}
