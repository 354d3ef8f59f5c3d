package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static dev.sluice.orchestration.service.ServiceFixture.GOLD;
import static dev.sluice.orchestration.service.ServiceFixture.SILVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.SluiceConfig;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.orchestration.service.RunRecord.Cause;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code after} chains: only bronze is scheduled; silver and gold run after it, in order, and the tables end up right. */
class AfterChainTest {
  @TempDir Path dir;

  @Test
  void silverAndGoldRunAfterBronzeAndTheTablesAreRight() {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(3, 20);
    SluiceConfig config = f.config("{every: 1 hour}");
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(config, session, ServiceOptions.defaults())) {
      ServiceFixture.await("gold to run", Duration.ofSeconds(30), () -> service.lastRun(GOLD).isPresent());
      RunRecord bronze = service.lastRun(BRONZE).orElseThrow();
      RunRecord silver = service.lastRun(SILVER).orElseThrow();
      RunRecord gold = service.lastRun(GOLD).orElseThrow();
      assertThat(bronze.cause()).isEqualTo(Cause.SCHEDULE);
      assertThat(bronze.rows()).isEqualTo(60);
      assertThat(bronze.batches()).as("max_files_per_trigger 1, 3 files").isEqualTo(3);
      assertThat(silver.cause()).isEqualTo(Cause.UPSTREAM);
      assertThat(gold.cause()).isEqualTo(Cause.UPSTREAM);
      assertThat(java.util.List.of(bronze, silver, gold)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
      assertThat(silver.start()).isAfterOrEqualTo(bronze.end());
      assertThat(gold.start()).isAfterOrEqualTo(silver.end());
      f.check(session);
      assertThat(service.nextFire(BRONZE)).hasValueSatisfying(t -> assertThat(t).isAfter(bronze.end()));

      // new data and a manual run of bronze: the chain runs again and the tables follow
      f.land(2, 10);
      service.trigger(BRONZE);
      ServiceFixture.await("gold to run again", Duration.ofSeconds(30), () -> service.runs(GOLD).size() == 2);
      assertThat(service.runs(BRONZE)).extracting(RunRecord::cause).containsExactly(Cause.SCHEDULE, Cause.MANUAL);
      assertThat(service.runs(SILVER)).hasSize(2);
      assertThat(service.runs(GOLD)).allSatisfy(r -> assertThat(r.succeeded()).isTrue());
      f.check(session);
    }
  }

  @Test
  void unknownPipelinesAreRefusedWithTheKnownOnes() {
    ServiceFixture f = new ServiceFixture(dir);
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(f.config("{cron: \"0 0 3 * * ?\"}"), session,
            ServiceOptions.defaults())) {
      assertThatThrownBy(() -> service.runs("events_brnze")).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("No pipeline named 'events_brnze' in the configuration; the pipelines are [events_bronze,"
              + " events_silver, totals_gold]");
      assertThat(service.lastRun(BRONZE)).isEmpty();
      assertThat(service.nextFire(SILVER)).as("after-only: no trigger of its own").isEmpty();
      service.stop();
      assertThatThrownBy(() -> service.trigger(BRONZE)).isInstanceOf(IllegalStateException.class)
          .hasMessage("The Sluice service is stopping; pipeline events_bronze was not triggered");
    }
  }
}
