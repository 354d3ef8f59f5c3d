package dev.sluice.orchestration.cli;

import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.Optimize;
import dev.sluice.table.Table;
import dev.sluice.table.expressions.Predicate;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code sluice optimize}: compacts a table's small files, optionally Z-ordered or clustered by columns. */
@Command(name = "optimize", header = "Compact a table's small files (Delta OPTIMIZE), optionally Z-ordered or clustered.",
    description = "Rewrites the files below the target size of each partition into files of the target size, in one "
    + "commit with dataChange=false that streams reading the table skip. Running it again does nothing until new small "
    + "files arrive. --zorder-by / --cluster-by write the rewritten rows in that order (files already in it are left "
    + "alone). --where limits it to partitions (a condition on partition columns).")
final class OptimizeCommand implements Callable<Integer> {
  @ParentCommand
  SluiceCli root;

  @Parameters(index = "0", paramLabel = "<table>",
      description = "A table of the --config file (e.g. bronze/orders) or a path / file: / s3: URI.")
  String table;

  @Option(names = {"-c", "--config"}, paramLabel = "<file>", description = "The config whose table names to use.")
  Path config;

  @Option(names = {"-w", "--where"}, paramLabel = "EXPR",
      description = "Only the partitions matching this SQL condition on partition columns, e.g. \"day >= '2026-11-01'\".")
  String where;

  @ArgGroup(exclusive = true)
  Order order;

  static final class Order {
    @Option(names = "--zorder-by", split = ",", paramLabel = "COL", description = "Write rows in Z-order over these columns.")
    List<String> zorderBy;

    @Option(names = "--cluster-by", split = ",", paramLabel = "COL", description = "Write rows sorted by these columns.")
    List<String> clusterBy;
  }

  @Option(names = "--target-file-size", paramLabel = "SIZE",
      description = "Compact files below this size into files of this size (default: delta.targetFileSize, else 128MB).")
  String targetFileSize;

  @Override
  public Integer call() {
    Terminal t = root.terminal();
    try (TableRef ref = TableRef.open(table, config)) {
      Optimize.Result r = optimize(ref.table()).execute();
      if (r.noop()) {
        t.result("Nothing to optimize in " + ref.label() + " version " + r.readVersion() + ": no partition has small"
            + " files" + (order == null ? "" : " not yet in that order") + ".");
        return ExitCodes.OK;
      }
      t.result("Optimized " + ref.label() + " in version " + r.committedVersion().getAsLong() + ": "
          + Values.count(r.filesRemoved()) + " files (" + Values.bytes(r.bytesRemoved()) + ") rewritten into "
          + Values.count(r.filesAdded()) + " (" + Values.bytes(r.bytesAdded()) + ") in "
          + Values.count(r.partitionsOptimized()) + " partition" + (r.partitionsOptimized() == 1 ? "" : "s") + ".");
    }
    return ExitCodes.OK;
  }

  private Optimize optimize(Table t) {
    Optimize o = t.optimize();
    if (where != null) {
      Predicate p = Expressions.toTablePredicate(where, t.latestSnapshot().schema()).orElseThrow(() ->
          CliException.usage("--where " + where + " cannot select partitions: write a condition on partition columns"
              + " with =, <>, <, >, IN, IS NULL, AND, OR and NOT"));
      o.where(p);
    }
    if (order != null && order.zorderBy != null) {
      o.zOrderBy(order.zorderBy.toArray(String[]::new));
    }
    if (order != null && order.clusterBy != null) {
      o.clusterBy(order.clusterBy.toArray(String[]::new));
    }
    if (targetFileSize != null) {
      o.targetFileSize(MaintenanceArgs.size(targetFileSize, "--target-file-size"));
    }
    return o;
  }
}
