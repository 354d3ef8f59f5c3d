package dev.sluice.orchestration.cli;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.StreamingQuery;
import dev.sluice.ingestion.StreamingQueryListener;
import java.util.Locale;

/**
 * Shows a run's progress: on a console a bar redrawn in place (units done of the backlog, rows, rate, ETA),
 * otherwise one log line per batch. Called on the query's thread, so it only counts and prints.
 */
final class RunProgress implements StreamingQueryListener {
  private static final int WIDTH = 24;

  private final Terminal terminal;
  private final String pipeline;
  private final Backlog backlog;
  private final long started = System.nanoTime();
  private long batches;
  private long rows;
  private long done;
  private final boolean bar;
  private boolean drawn;

  /**
   * {@code allowBar}: a bar may be drawn (on a console); otherwise always plain lines. {@code backlog} is asked at
   * once, before the query starts (a landing-file backlog read later would miss the files the first batch logged),
   * and only when something is shown: with {@code --quiet} nothing is, and listing the landing folder and reading
   * the source's file log kept a short run's first query waiting (~0.1-0.17 s of the +1 % increment).
   */
  RunProgress(Terminal terminal, String pipeline, java.util.function.Supplier<Backlog> backlog, boolean allowBar) {
    this.terminal = terminal;
    this.pipeline = pipeline;
    this.backlog = terminal.quiet() ? Backlog.unknown() : backlog.get();
    this.bar = allowBar && terminal.interactive();
  }

  /** Draws the empty bar before the first batch. */
  void begin() {
    if (!backlog.note().isEmpty()) {
      terminal.info(pipeline + ": backlog unknown: " + backlog.note());
    }
    if (bar) {
      terminal.redraw(bar());
      drawn = true;
    } else if (backlog.total() > 0) {
      terminal.info(pipeline + ": " + Values.count(backlog.total()) + " " + unit(backlog.total()) + " to process");
    }
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    if (!pipeline.equals(query.name())) {
      return;
    }
    synchronized (this) {
      batches++;
      // A re-run batch found already committed was counted by the run that crashed.
      rows += progress.sink() != null && progress.sink().alreadyCommitted() ? 0 : progress.numInputRows();
      done = backlog.doneAfter(progress);
      if (bar) {
        terminal.redraw(bar());
        drawn = true;
      } else if (progress.numInputRows() > 0 || backlog.total() >= 0) {
        // a continuous query's empty batches (no new data, or only a watermark move) are not news
        terminal.info(line(progress));
      }
    }
  }

  /** Clears the bar (the caller prints the run's summary line). */
  synchronized void end() {
    if (drawn) {
      terminal.endRedraw();
    }
  }

  synchronized long batches() {
    return batches;
  }

  synchronized long rows() {
    return rows;
  }

  private String bar() {
    StringBuilder sb = new StringBuilder(pipeline).append("  ");
    long total = backlog.total();
    if (total > 0) {
      int filled = (int) Math.min(WIDTH, done * WIDTH / total);
      sb.append('[').append("#".repeat(filled)).append("-".repeat(WIDTH - filled)).append("]  ")
          .append(Values.count(done)).append('/').append(Values.count(total)).append(' ').append(backlog.unit())
          .append("  ");
    } else {
      sb.append("batch ").append(batches).append("  ");
    }
    sb.append(Values.count(rows)).append(" rows");
    double seconds = elapsedSeconds();
    if (rows > 0 && seconds > 0) {
      sb.append(String.format(Locale.ROOT, "  %,.0f rows/s", rows / seconds));
    }
    eta().ifPresent(e -> sb.append("  ETA ").append(e));
    return sb.toString();
  }

  private String line(QueryProgress p) {
    StringBuilder sb = new StringBuilder(pipeline).append(": batch ").append(p.batchId()).append(", ")
        .append(Values.count(p.numInputRows())).append(" rows in ").append(Values.duration(p.batchDuration()));
    if (backlog.total() > 0) {
      sb.append("; ").append(Values.count(done)).append('/').append(Values.count(backlog.total())).append(' ')
          .append(backlog.unit()).append(" done");
      eta().ifPresent(e -> sb.append(", ETA ").append(e));
    }
    return sb.toString();
  }

  private java.util.Optional<String> eta() {
    long total = backlog.total();
    if (total <= 0 || done <= 0 || done >= total) {
      return java.util.Optional.empty();
    }
    long left = (long) (elapsedSeconds() * (total - done) / done);
    return java.util.Optional.of(String.format(Locale.ROOT, "%d:%02d", left / 60, left % 60));
  }

  private String unit(long n) {
    return n == 1 ? backlog.unit().substring(0, backlog.unit().length() - 1) : backlog.unit();
  }

  private double elapsedSeconds() {
    return (System.nanoTime() - started) / 1e9;
  }
}
