package dev.sluice.config;

import java.util.List;

/** A config file that cannot be used, with every problem found in it (not only the first). */
public final class ConfigException extends RuntimeException {
  private final String sourceName;
  private final List<ConfigProblem> problems;

  public ConfigException(String sourceName, List<ConfigProblem> problems) {
    super(render(sourceName, problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("A ConfigException needs at least one problem");
    }
    this.sourceName = sourceName;
    this.problems = List.copyOf(problems);
  }

  /** The file name (or other label) the config was read from. */
  public String sourceName() {
    return sourceName;
  }

  /** Every problem, in file order. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String render(String sourceName, List<ConfigProblem> problems) {
    StringBuilder text = new StringBuilder();
    text.append(sourceName).append(": ").append(problems.size())
        .append(problems.size() == 1 ? " problem" : " problems").append(" in the Sluice config");
    for (ConfigProblem problem : problems) {
      text.append("\n  ").append(problem);
      if (!problem.hint().isEmpty()) {
        text.append("\n      ").append(problem.hint());
      }
    }
    return text.toString();
  }
}
