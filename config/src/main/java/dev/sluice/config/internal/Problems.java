package dev.sluice.config.internal;

import dev.sluice.config.ConfigProblem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects every problem of one file, placing each at the line of its path (or of the nearest written parent). */
final class Problems {
  private final Map<String, YamlNode.Mark> marks = new HashMap<>();
  private final List<ConfigProblem> problems = new ArrayList<>();

  void mark(String path, YamlNode.Mark mark) {
    marks.putIfAbsent(path, mark);
  }

  void add(String path, String message, String hint) {
    add(path, markOf(path), message, hint);
  }

  void add(String path, YamlNode.Mark mark, String message, String hint) {
    problems.add(new ConfigProblem(path, mark == null ? 0 : mark.line(), mark == null ? 0 : mark.column(),
        message, hint == null ? "" : hint));
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  int size() {
    return problems.size();
  }

  /** In file order; problems of one place keep the order they were found in. */
  List<ConfigProblem> sorted() {
    List<ConfigProblem> copy = new ArrayList<>(problems);
    copy.sort(Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column));
    return copy;
  }

  private YamlNode.Mark markOf(String path) {
    // A missing key has no line of its own: report the line of the mapping it is missing from.
    String p = path;
    while (!p.isEmpty()) {
      YamlNode.Mark mark = marks.get(p);
      if (mark != null) {
        return mark;
      }
      p = parent(p);
    }
    return marks.getOrDefault("", YamlNode.Mark.START);
  }

  static String parent(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    return cut < 0 ? "" : path.substring(0, cut);
  }
}
