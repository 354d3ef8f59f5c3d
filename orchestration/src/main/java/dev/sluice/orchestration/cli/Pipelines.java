package dev.sluice.orchestration.cli;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.orchestration.PipelineGraph;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Loading a config and finding pipelines, their tables and checkpoints in it, as the commands need them. */
final class Pipelines {
  private Pipelines() {}

  /** Loads a config file; a bad file throws {@link dev.sluice.config.ConfigException} (exit code 2). */
  /**
   * The class loader of user processors ({@code process.class}): {@code jars} (from {@code --jars}) and every jar
   * of the {@code plugins/} folder beside the config file.
   */
  static ClassLoader plugins(Path configFile, List<Path> jars) {
    Path dir = configFile.toAbsolutePath().getParent();
    try {
      return dev.sluice.ingestion.stateful.Plugins.classLoader(jars, dir == null ? null : dir.resolve("plugins"));
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
  }

  static SluiceConfig load(Path file) {
    return ConfigLoader.load(file);
  }

  /**
   * The named pipelines and every pipeline they depend on, upstream first (all pipelines when
   * {@code names} is empty).
   */
  static List<PipelineConfig> withUpstreams(SluiceConfig config, List<String> names) {
    Set<String> wanted = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(names);
    while (!todo.isEmpty()) {
      String n = todo.pop();
      PipelineConfig p = config.pipeline(n).orElseThrow(() -> CliException.usage("No pipeline named '" + n
          + "' in the config; its pipelines are " + config.pipelines().stream().map(PipelineConfig::name).toList()
          + ". Fix the --pipeline value."));
      if (wanted.add(n)) {
        todo.addAll(PipelineGraph.upstream(p));
      }
    }
    return PipelineGraph.ordered(config, List.copyOf(wanted));
  }

  /** The URI of a pipeline's sink table. */
  static String tableUri(SluiceConfig config, PipelineConfig p) {
    return config.tableUri(p.sink().table()).toString();
  }

  /** The URI of a pipeline's checkpoint ({@code <sink table>/_checkpoints/<name>}, as the layers place it). */
  static String checkpointUri(SluiceConfig config, PipelineConfig p) {
    return tableUri(config, p) + "/_checkpoints/" + p.name();
  }

  /** The tables a pipeline writes: its sink and, when the layer keeps them, quarantine and late rows. */
  static List<String> tablesOf(PipelineConfig p) {
    List<String> tables = new java.util.ArrayList<>(List.of(p.sink().table()));
    tables.addAll(p.layer().sideTables(p.sink().table()));
    return tables;
  }
}
