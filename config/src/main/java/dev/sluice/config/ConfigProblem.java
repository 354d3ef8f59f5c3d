package dev.sluice.config;

import java.util.Objects;

/**
 * One mistake in a config file: where ({@code pipelines[2].sink.merge.keys}, line and column, 1-based; 0 when
 * unknown), what is wrong, and how to fix it (the hint may be empty).
 */
public record ConfigProblem(String path, int line, int column, String message, String hint) {
  public ConfigProblem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(hint, "hint");
  }

  /** {@code path: message (line N)}, the form the loader's tests and the CLI show. */
  @Override
  public String toString() {
    String where = path.isEmpty() ? "" : path + ": ";
    return where + message + (line > 0 ? " (line " + line + ")" : "");
  }
}
