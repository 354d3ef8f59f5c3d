package dev.sluice.config.internal;

import dev.sluice.config.Layer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks what spans pipelines: unique names and sink tables, that {@code source.pipeline}, join pipelines and
 * {@code after} name existing pipelines of the right layer, and that the graph they form has no cycle.
 */
final class ReferenceChecker {
  private final List<PipelineRef> refs;
  private final Problems problems;
  private final Map<String, PipelineRef> byName = new LinkedHashMap<>();

  private ReferenceChecker(List<PipelineRef> refs, Problems problems) {
    this.refs = refs;
    this.problems = problems;
  }

  static void check(List<PipelineRef> refs, Problems problems) {
    new ReferenceChecker(refs, problems).check();
  }

  private void check() {
    checkUniqueNames();
    checkUniqueSinks();
    checkTableLayout();
    for (PipelineRef ref : refs) {
      checkSource(ref);
      ref.joinPipelines().forEach((j, name) ->
          checkExists(ref, ref.path() + ".joins[" + j + "].pipeline", name));
      if (ref.streamJoinPipeline() != null) {
        checkExists(ref, ref.path() + ".join_stream.pipeline", ref.streamJoinPipeline());
      }
      for (int i = 0; i < ref.after().size(); i++) {
        checkExists(ref, ref.path() + ".after[" + i + "]", ref.after().get(i));
      }
    }
    checkCycles();
  }

  private void checkUniqueNames() {
    for (PipelineRef ref : refs) {
      if (ref.name() == null) {
        continue;
      }
      PipelineRef first = byName.putIfAbsent(ref.name(), ref);
      if (first != null) {
        problems.add(ref.path() + ".name", "duplicate pipeline name `" + ref.name() + "` (also " + first.path()
            + ")", "every pipeline needs its own name: its checkpoint and schedule are keyed by it");
      }
    }
  }

  private void checkUniqueSinks() {
    Map<String, PipelineRef> writers = new HashMap<>();
    for (PipelineRef ref : refs) {
      if (ref.sinkTable() == null) {
        continue;
      }
      PipelineRef first = writers.putIfAbsent(ref.sinkTable(), ref);
      if (first != null) {
        problems.add(ref.path() + ".sink.table", "table `" + ref.sinkTable() + "` is already written by "
            + describe(first), "give each pipeline its own sink table");
      }
    }
  }

  /**
   * A sink table may not be another pipeline's side table (its quarantine or late rows), nor lie inside or
   * around another table: a table's folder holds its log, data files and checkpoints only, and VACUUM of the
   * outer table would delete the inner table's files.
   */
  private void checkTableLayout() {
    for (PipelineRef ref : refs) {
      if (ref.sinkTable() == null) {
        continue;
      }
      for (PipelineRef other : refs) {
        // One problem per table: a table inside a side table is also inside the pipeline writing there.
        if (other != ref && other.sinkTable() != null && other.layer() != null && !checkLayout(ref, other)) {
          break;
        }
      }
    }
  }

  /** False when a problem was found. */
  private boolean checkLayout(PipelineRef ref, PipelineRef other) {
    String table = ref.sinkTable();
    String path = ref.path() + ".sink.table";
    String hint = "give every table its own folder beside the others, e.g. gold/revenue next to silver/orders";
    for (String side : other.layer().sideTables(other.sinkTable())) {
      if (side.equals(table)) {
        problems.add(path, "table `" + table + "` is where " + describe(other) + " writes its "
            + (side.endsWith("_late") ? "late rows" : "quarantined rows"), hint);
        return false;
      }
    }
    List<String> tables = new ArrayList<>(other.layer().sideTables(other.sinkTable()));
    tables.add(0, other.sinkTable());
    for (String outer : tables) {
      if (table.startsWith(outer + "/")) {
        String inside = table.startsWith(outer + "/_checkpoints") ? "the checkpoint folder of table `" + outer + "`"
            : "table `" + outer + "`";
        problems.add(path, "table `" + table + "` is inside " + inside + ", written by " + describe(other), hint);
        return false;
      }
    }
    return true;
  }

  private void checkSource(PipelineRef ref) {
    String path = ref.path() + ".source.pipeline";
    PipelineRef upstream = checkExists(ref, path, ref.sourcePipeline());
    if (upstream == null || ref.layer() == null || upstream.layer() == null || ref.layer() == Layer.BRONZE) {
      return;
    }
    Layer wanted = ref.layer() == Layer.SILVER ? Layer.BRONZE : Layer.SILVER;
    if (upstream.layer() != wanted) {
      problems.add(path, "a " + ref.layer().yamlName() + " pipeline reads a " + wanted.yamlName()
              + " pipeline, but `" + upstream.name() + "` is " + upstream.layer().yamlName(),
          "name a " + wanted.yamlName() + " pipeline, or read the table directly with `table:`");
    }
  }

  private PipelineRef checkExists(PipelineRef from, String path, String name) {
    if (name == null) {
      return null;
    }
    if (name.equals(from.name())) {
      problems.add(path, "pipeline `" + name + "` refers to itself", "name another pipeline");
      return null;
    }
    PipelineRef target = byName.get(name);
    if (target == null) {
      problems.add(path, "no pipeline is named `" + name + "`",
          Suggestions.closest(name, byName.keySet()).map(s -> "did you mean `" + s + "`? ").orElse("")
              + "pipelines: " + String.join(", ", byName.keySet()));
    }
    return target;
  }

  private void checkCycles() {
    Map<String, Integer> state = new HashMap<>(); // absent: unvisited, 1: on the path, 2: done
    for (PipelineRef ref : byName.values()) {
      visit(ref, state, new ArrayList<>());
    }
  }

  private void visit(PipelineRef ref, Map<String, Integer> state, List<String> trail) {
    Integer seen = state.get(ref.name());
    if (seen != null && seen == 2) {
      return;
    }
    if (seen != null) {
      List<String> cycle = new ArrayList<>(trail.subList(trail.indexOf(ref.name()), trail.size()));
      cycle.add(ref.name());
      PipelineRef start = byName.get(cycle.get(0));
      problems.add(edgePath(start, cycle.get(1)), "pipelines depend on each other in a"
          + " cycle: " + String.join(" -> ", cycle), "remove one of these dependencies (`after:` or"
          + " `source.pipeline`)");
      return;
    }
    state.put(ref.name(), 1);
    trail.add(ref.name());
    for (String upstream : upstreams(ref)) {
      PipelineRef next = byName.get(upstream);
      if (next != null && next != ref) {
        visit(next, state, trail);
      }
    }
    trail.remove(trail.size() - 1);
    state.put(ref.name(), 2);
  }

  /** Where {@code from} names {@code to}: its {@code after}, {@code source.pipeline} or a join. */
  private static String edgePath(PipelineRef from, String to) {
    if (from.after().contains(to)) {
      return from.path() + ".after";
    }
    if (to.equals(from.sourcePipeline())) {
      return from.path() + ".source.pipeline";
    }
    if (to.equals(from.streamJoinPipeline())) {
      return from.path() + ".join_stream.pipeline";
    }
    return from.joinPipelines().entrySet().stream().filter(e -> e.getValue().equals(to))
        .map(e -> from.path() + ".joins[" + e.getKey() + "].pipeline").findFirst().orElse(from.path());
  }

  /** Each upstream once, even when named twice (after: and source.pipeline), so a cycle is reported once. */
  private static Set<String> upstreams(PipelineRef ref) {
    Set<String> names = new LinkedHashSet<>(ref.after());
    if (ref.sourcePipeline() != null) {
      names.add(ref.sourcePipeline());
    }
    names.addAll(ref.joinPipelines().values());
    if (ref.streamJoinPipeline() != null) {
      names.add(ref.streamJoinPipeline());
    }
    return names;
  }

  private static String describe(PipelineRef ref) {
    return ref.name() == null ? ref.path() : "pipeline `" + ref.name() + "` (" + ref.path() + ")";
  }
}
