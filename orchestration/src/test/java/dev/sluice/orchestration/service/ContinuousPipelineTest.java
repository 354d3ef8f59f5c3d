package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static dev.sluice.orchestration.service.ServiceFixture.SILVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunRecord.Cause;
import dev.sluice.orchestration.service.RunRecord.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A processing_time pipeline runs as a continuous query from start to stop. */
class ContinuousPipelineTest {
  @TempDir Path dir;

  @Test
  void aProcessingTimePipelineRunsContinuouslyUntilTheServiceStops() {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(1, 5);
    String yaml = f.yaml("{every: 1 hour}").replace("schedule: {every: 1 hour}", "trigger: {processing_time: 200 ms}");
    SluiceConfig config = ConfigLoader.parse(yaml, "test.yaml", Map.of());
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(config, session, ServiceOptions.defaults())) {
      ServiceFixture.await("the first file", Duration.ofSeconds(20),
          () -> f.table(session, "bronze/events").exists() && f.column(session, "bronze/events", "id").size() == 5);
      f.land(2, 5);
      ServiceFixture.await("files landed later", Duration.ofSeconds(20),
          () -> f.column(session, "bronze/events", "id").size() == 15);
      assertThat(service.runningCount()).isEqualTo(1);
      assertThat(service.runs(BRONZE)).as("no record while it runs").isEmpty();
      service.stop();
      assertThat(service.runs(BRONZE)).singleElement().satisfies(r -> {
        assertThat(r.cause()).isEqualTo(Cause.CONTINUOUS);
        assertThat(r.outcome()).isEqualTo(Outcome.STOPPED);
        assertThat(r.batches()).isEqualTo(3);
        assertThat(r.rows()).isEqualTo(15);
      });
      assertThat(service.runs(SILVER)).as("a continuous run never finishes, so it triggers no downstream").isEmpty();
      assertThat(session.streams().active()).isEmpty();
      assertThat(f.column(session, "bronze/events", "id")).containsExactlyInAnyOrderElementsOf(f.ids());
    }
  }
}
