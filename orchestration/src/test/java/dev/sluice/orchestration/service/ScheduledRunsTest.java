package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pipeline on a 1-second interval runs repeatedly, never overlapping itself, even when a run outlasts the interval. */
class ScheduledRunsTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  @Test
  void aOneSecondIntervalRunsRepeatedlyWithoutOverlapOrBurst() {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(4, 5);
    AtomicInteger inBatch = new AtomicInteger();
    AtomicInteger maxInBatch = new AtomicInteger();
    // 4 files, one per batch, 700 ms each: the first run takes ~3 s, three intervals
    BatchInterceptor.REGISTRY.put(BRONZE, (step, batchId) -> {
      if (step == BatchInterceptor.Step.AFTER_OFFSETS) {
        maxInBatch.accumulateAndGet(inBatch.incrementAndGet(), Math::max);
        sleep(700);
      } else if (step == BatchInterceptor.Step.AFTER_COMMIT) {
        inBatch.decrementAndGet();
      }
    });
    List<RunRecord> runs;
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(f.config("{every: 1 second}"), session, ServiceOptions.defaults())) {
      ServiceFixture.await("5 runs", Duration.ofSeconds(20), () -> service.runs(BRONZE).size() >= 5);
      service.stop();
      runs = service.runs(BRONZE);
      assertThat(f.column(session, "bronze/events", "id")).containsExactlyInAnyOrderElementsOf(f.ids());
    }
    assertThat(runs).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
    assertThat(maxInBatch.get()).isEqualTo(1);
    RunRecord first = runs.get(0);
    assertThat(first.batches()).isEqualTo(4);
    assertThat(first.duration()).isGreaterThan(Duration.ofMillis(2500));
    for (int i = 1; i < runs.size(); i++) {
      assertThat(runs.get(i).start()).as("run %d starts after run %d ended", i, i - 1).isAfterOrEqualTo(runs.get(i - 1).end());
    }
    // the fires missed during the long run become one run right after it, not a catch-up burst
    assertThat(Duration.between(first.end(), runs.get(1).start())).isLessThan(Duration.ofMillis(700));
    for (int i = 2; i < runs.size(); i++) {
      assertThat(Duration.between(runs.get(i - 1).start(), runs.get(i).start())).as("interval before run %d", i)
          .isGreaterThan(Duration.ofMillis(800));
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
