package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.table.HistoryEntry;
import dev.sluice.table.Table;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code maintenance:} runs on its schedule in {@code serve}, never in the middle of a run of the table's pipeline. */
class MaintenanceScheduleTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  @Test
  void anOptimizeEverySecondWaitsForThePipelineRunAndThenCompactsItsFiles() {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(4, 5);
    // 4 files, one per batch, 400 ms each: the run spans several fires of the every-second OPTIMIZE
    BatchInterceptor.REGISTRY.put(BRONZE, (step, batchId) -> {
      if (step == BatchInterceptor.Step.AFTER_OFFSETS) {
        sleep(400);
      }
    });
    String bronze = "{every: 1 hour}\n    maintenance: {optimize: \"* * * * * ?\", vacuum: \"* * * * * ?\"}";
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(f.config(bronze), session, ServiceOptions.defaults())) {
      Table table = f.table(session, "bronze/events");
      ServiceFixture.await("an OPTIMIZE of bronze/events", Duration.ofSeconds(25), () -> table.exists()
          && table.history(50).stream().anyMatch(h -> "OPTIMIZE".equals(h.operation())));
      service.stop();
      List<HistoryEntry> history = table.history(50).stream()
          .sorted(Comparator.comparingLong(HistoryEntry::version)).toList();
      List<Long> streaming = history.stream().filter(h -> h.operation().startsWith("STREAMING"))
          .map(HistoryEntry::version).toList();
      assertThat(streaming).hasSize(4);
      assertThat(streaming.get(3) - streaming.get(0)).as("the run's commits %s are contiguous: %s", streaming,
          history.stream().map(h -> h.version() + " " + h.operation()).toList()).isEqualTo(3);
      HistoryEntry optimize = history.stream().filter(h -> "OPTIMIZE".equals(h.operation())).findFirst().orElseThrow();
      assertThat(optimize.version()).isGreaterThan(streaming.get(3));
      assertThat(optimize.operationMetrics()).containsEntry("numRemovedFiles", "4");
      assertThat(table.latestSnapshot().files()).hasSize(1);
      assertThat(f.column(session, "bronze/events", "id")).containsExactlyInAnyOrderElementsOf(f.ids());
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
