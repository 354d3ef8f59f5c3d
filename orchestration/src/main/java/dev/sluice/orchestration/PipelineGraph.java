package dev.sluice.orchestration;

import dev.sluice.config.JoinConfig;
import dev.sluice.config.PipelineConfig;
import dev.sluice.config.SluiceConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pipelines of a configuration in dependency order: a pipeline comes after the ones it names in
 * {@code after}, its source and its joins (the config loader has already refused cycles).
 */
public final class PipelineGraph {
  private PipelineGraph() {}

  /** The named pipelines (all when {@code names} is empty) and what they depend on, upstream first. */
  public static List<PipelineConfig> ordered(SluiceConfig config, List<String> names) {
    Map<String, PipelineConfig> byName = new LinkedHashMap<>();
    config.pipelines().forEach(p -> byName.put(p.name(), p));
    for (String n : names) {
      if (!byName.containsKey(n)) {
        throw new IllegalArgumentException("No pipeline named '" + n + "'; the pipelines are " + byName.keySet());
      }
    }
    Set<String> wanted = new LinkedHashSet<>(names.isEmpty() ? byName.keySet() : names);
    // the named pipelines' upstreams, transitively, run first
    List<String> queue = new ArrayList<>(wanted);
    for (int i = 0; i < queue.size(); i++) {
      PipelineConfig p = byName.get(queue.get(i));
      for (String u : p == null ? Set.<String>of() : upstream(p)) {
        if (byName.containsKey(u) && wanted.add(u)) {
          queue.add(u);
        }
      }
    }
    List<PipelineConfig> out = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    for (String n : byName.keySet()) {
      if (wanted.contains(n)) {
        visit(byName.get(n), byName, done, out, wanted);
      }
    }
    return out;
  }

  /** The pipelines {@code p} depends on. */
  public static Set<String> upstream(PipelineConfig p) {
    Set<String> out = new LinkedHashSet<>(p.after());
    p.source().pipeline().ifPresent(out::add);
    for (JoinConfig j : p.joins()) {
      j.pipeline().ifPresent(out::add);
    }
    p.joinStream().flatMap(j -> j.pipeline()).ifPresent(out::add);
    return out;
  }

  private static void visit(PipelineConfig p, Map<String, PipelineConfig> byName, Set<String> done,
      List<PipelineConfig> out, Set<String> wanted) {
    if (done.contains(p.name())) {
      return;
    }
    done.add(p.name());
    for (String u : upstream(p)) {
      PipelineConfig up = byName.get(u);
      if (up != null && wanted.contains(u)) {
        visit(up, byName, done, out, wanted);
      }
    }
    out.add(p);
  }
}
