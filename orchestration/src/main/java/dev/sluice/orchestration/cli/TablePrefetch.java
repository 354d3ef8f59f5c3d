package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.Table;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the latest state of each table a finite run's pipelines write or read, in run order, on a thread of its own,
 * while the first pipeline runs: the queries then find the tables' states read (the table objects of one store share
 * them, advanced by the commits since) instead of each replaying its log from the checkpoint on the run's critical
 * path. In the +1 % increment the silver and gold tables are loaded while bronze runs. Nothing depends on it: a
 * table it could not read (not created yet, unreachable) is left to the query, which reports what is wrong.
 */
final class TablePrefetch {
  private static final Logger LOG = LoggerFactory.getLogger(TablePrefetch.class);

  private TablePrefetch() {}

  static void startInBackground(SluiceSession session, SluiceConfig config, List<PipelineConfig> pipelines) {
    Thread t = new Thread(() -> {
      for (String uri : tables(config, pipelines)) {
        try {
          Table table = session.table(uri);
          if (table.exists()) {
            table.latestSnapshot();
          }
        } catch (RuntimeException e) {
          LOG.debug("Could not read {} ahead of the run: {}", uri, e.toString());
        }
      }
    }, "sluice-table-prefetch");
    t.setDaemon(true);
    t.start();
  }

  /** Each pipeline's sink, side tables and source table, in run order, once each. */
  static Set<String> tables(SluiceConfig config, List<PipelineConfig> pipelines) {
    Set<String> out = new LinkedHashSet<>();
    for (PipelineConfig p : pipelines) {
      out.add(config.tableUri(p.sink().table()).toString());
      p.source().table().ifPresent(t -> out.add(config.tableUri(t).toString()));
      p.layer().sideTables(p.sink().table()).forEach(t -> out.add(config.tableUri(t).toString()));
    }
    return out;
  }
}
