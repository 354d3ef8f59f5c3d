package dev.sluice.orchestration.cli;

import java.io.PrintWriter;

/**
 * Where a command writes: results always go to standard output; progress and hints only without
 * {@code --quiet}; problems to standard error. Knows whether a person is watching (a console), which
 * decides between a redrawn progress bar and plain log lines.
 */
final class Terminal {
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean quiet;
  private final boolean verbose;
  private final boolean interactive;

  Terminal(PrintWriter out, PrintWriter err, boolean quiet, boolean verbose, boolean interactive) {
    this.out = out;
    this.err = err;
    this.quiet = quiet;
    this.verbose = verbose;
    this.interactive = interactive;
  }

  boolean quiet() {
    return quiet;
  }

  boolean verbose() {
    return verbose;
  }

  /** True when standard output is a console a person reads (progress bars are redrawn in place). */
  boolean interactive() {
    return interactive;
  }

  /** A result line: printed even with {@code --quiet}. */
  synchronized void result(String line) {
    out.println(line);
    out.flush();
  }

  /** An informational line (progress, hints): left out with {@code --quiet}. */
  synchronized void info(String line) {
    if (!quiet) {
      out.println(line);
      out.flush();
    }
  }

  /** Redraws the current line in place (a progress bar); only on a console and without {@code --quiet}. */
  synchronized void redraw(String line) {
    if (!quiet && interactive) {
      out.print("\r" + line + "\u001b[K");
      out.flush();
    }
  }

  /** Ends a line that {@link #redraw} drew. */
  synchronized void endRedraw() {
    if (!quiet && interactive) {
      out.print("\r\u001b[K");
      out.flush();
    }
  }

  /** A problem, on standard error. */
  synchronized void error(String line) {
    err.println(line);
    err.flush();
  }

  /** A detail shown only with {@code --verbose}, on standard error. */
  synchronized void debug(String line) {
    if (verbose) {
      err.println(line);
      err.flush();
    }
  }
}
