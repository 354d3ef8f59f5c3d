package dev.sluice.orchestration.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The backlog is worked out only when the progress is shown, and then before the query starts. */
class RunProgressTest {
  @Test
  void withQuietTheBacklogIsNeverAskedFor() {
    AtomicInteger asked = new AtomicInteger();
    RunProgress progress = new RunProgress(terminal(new StringWriter(), true), "p", () -> {
      asked.incrementAndGet();
      return Backlog.unknown();
    }, true);
    progress.begin();
    progress.end();
    assertThat(asked).hasValue(0);
  }

  @Test
  void otherwiseItIsAskedForOnceWhenTheProgressIsMade() {
    AtomicInteger asked = new AtomicInteger();
    StringWriter out = new StringWriter();
    RunProgress progress = new RunProgress(terminal(out, false), "p", () -> {
      asked.incrementAndGet();
      return Backlog.unknown();
    }, true);
    assertThat(asked).hasValue(1);
    progress.begin();
    progress.end();
    assertThat(asked).hasValue(1);
  }

  private static Terminal terminal(StringWriter out, boolean quiet) {
    return new Terminal(new PrintWriter(out, true), new PrintWriter(out, true), quiet, false, false);
  }
}
