package dev.sluice.table.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class LastCheckpointWarningTest {
  @TempDir Path tmp;
  private final Logger logger = (Logger) LoggerFactory.getLogger(LastCheckpoint.class);
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private Level level;

  @BeforeEach
  void capture() {
    level = logger.getLevel();
    logger.setLevel(Level.DEBUG);
    events.start();
    logger.addAppender(events);
  }

  @AfterEach
  void release() {
    logger.detachAppender(events);
    logger.setLevel(level);
  }

  @Test
  void aGarbageHintWarnsOncePerTableThenLogsAtDebug() {
    TestLog first = tableWithGarbageHint("first");
    TestLog second = tableWithGarbageHint("second");

    for (int i = 0; i < 10; i++) {
      assertThat(new DeltaLog(first.store, "tables/first").snapshot().version()).isEqualTo(2);
    }
    second.log.snapshot();

    List<ILoggingEvent> warnings = events.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
    assertThat(warnings).extracting(ILoggingEvent::getFormattedMessage).satisfiesExactly(
        w -> assertThat(w).contains("tables/first/_delta_log/_last_checkpoint", "it is not valid JSON",
            "the log is listed from version 0", "logged once per process"),
        w -> assertThat(w).contains("tables/second/_delta_log/_last_checkpoint"));
    assertThat(events.list).filteredOn(e -> e.getLevel() == Level.DEBUG).hasSize(9)
        .allSatisfy(e -> assertThat(e.getFormattedMessage()).contains("tables/first/_delta_log/_last_checkpoint"));
  }

  private TestLog tableWithGarbageHint(String name) {
    TestLog t = new TestLog(tmp, "tables/" + name).create(TestLog.add("a"));
    t.commit(1, TestLog.info("WRITE"), TestLog.add("b"));
    t.commit(2, TestLog.info("WRITE"), TestLog.add("c"));
    t.write("_last_checkpoint", "{\"version\": 1, garbage");
    return t;
  }
}
