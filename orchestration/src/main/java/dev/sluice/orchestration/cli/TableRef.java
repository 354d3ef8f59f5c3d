package dev.sluice.orchestration.cli;

import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.Sessions;
import dev.sluice.table.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A table named on the command line: a table of a config ({@code gold/revenue} with {@code --config}) or a
 * path / {@code file:} / {@code s3:} URI. Opens it with the config's storage settings when there is one.
 */
final class TableRef implements AutoCloseable {
  private final SluiceSession session;
  private final Table table;
  private final String label;

  private TableRef(SluiceSession session, Table table, String label) {
    this.session = session;
    this.table = table;
    this.label = label;
  }

  /**
   * Resolves {@code name}; fails with a message naming the config's tables or the missing {@code _delta_log}.
   *
   * @param configFile the config the name may come from, or null
   */
  static TableRef open(String name, Path configFile) {
    if (configFile != null) {
      SluiceConfig config = Pipelines.load(configFile);
      List<String> known = new ArrayList<>();
      for (PipelineConfig p : config.pipelines()) {
        for (String t : Pipelines.tablesOf(p)) {
          known.add(t);
          if (t.equals(name) || (p.name().equals(name) && t.equals(p.sink().table()))) {
            return existing(Sessions.forConfig(config), config.tableUri(t).toString(), t,
                "its pipeline " + p.name() + " has not written it yet: sluice run " + configFile + " --pipeline "
                    + p.name() + " --available-now");
          }
        }
      }
      if (!looksLikePath(name)) {
        throw CliException.usage("No table '" + name + "' in " + configFile + "; its tables are " + known
            + " (or give a pipeline name, a path or a file:/s3: URI)");
      }
      return existing(Sessions.forConfig(config), name, name, "check the path");
    }
    return existing(SluiceSession.create(), name, name,
        "check the path, or name a table of a config with --config <file> (e.g. gold/revenue)");
  }

  private static boolean looksLikePath(String name) {
    return name.contains("://") || name.startsWith("file:") || name.startsWith("/") || name.startsWith(".")
        || java.nio.file.Files.exists(Path.of(name));
  }

  private static TableRef existing(SluiceSession session, String uri, String label, String fix) {
    Table t = session.table(uri);
    if (!t.exists()) {
      session.close();
      throw CliException.failed("No Delta table at " + t.uri() + " (no _delta_log/ there): " + fix + ".");
    }
    return new TableRef(session, t, label);
  }

  Table table() {
    return table;
  }

  /** How the user named it. */
  String label() {
    return label;
  }

  @Override
  public void close() {
    session.close();
  }
}
