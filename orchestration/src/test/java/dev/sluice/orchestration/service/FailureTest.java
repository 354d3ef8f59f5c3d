package dev.sluice.orchestration.service;

import static dev.sluice.orchestration.service.ServiceFixture.BRONZE;
import static dev.sluice.orchestration.service.ServiceFixture.GOLD;
import static dev.sluice.orchestration.service.ServiceFixture.SILVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import dev.sluice.orchestration.service.RunRecord.Cause;
import dev.sluice.orchestration.service.RunRecord.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failing upstream is recorded and retried per policy, and its downstream does not run until it succeeds. */
class FailureTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  @Test
  void aFailingUpstreamIsRetriedAndStopsItsDownstream() throws InterruptedException {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(2, 5);
    BatchInterceptor.REGISTRY.put(BRONZE, (step, batchId) -> {
      if (step == BatchInterceptor.Step.BEFORE_SINK) {
        throw new IllegalStateException("injected failure in bronze batch " + batchId);
      }
    });
    ServiceOptions options = ServiceOptions.defaults()
        .withRetry(new RetryPolicy(3, Duration.ofMillis(200), 2.0, Duration.ofSeconds(10)));
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(f.config("{every: 1 hour}"), session, options)) {
      ServiceFixture.await("3 attempts", Duration.ofSeconds(20), () -> service.runs(BRONZE).size() >= 3);
      Thread.sleep(1000);   // room for a 4th attempt or a downstream run, which must not come
      List<RunRecord> runs = service.runs(BRONZE);
      assertThat(runs).extracting(RunRecord::attempt).containsExactly(1, 2, 3);
      assertThat(runs).extracting(RunRecord::cause).containsExactly(Cause.SCHEDULE, Cause.RETRY, Cause.RETRY);
      assertThat(runs).allSatisfy(r -> {
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("injected failure in bronze batch 0"));
        assertThat(r.batches()).isZero();
      });
      assertThat(Duration.between(runs.get(0).end(), runs.get(1).start())).isGreaterThanOrEqualTo(Duration.ofMillis(200));
      assertThat(Duration.between(runs.get(1).end(), runs.get(2).start())).isGreaterThanOrEqualTo(Duration.ofMillis(400));
      assertThat(service.runs(SILVER)).isEmpty();
      assertThat(service.runs(GOLD)).isEmpty();
      assertThat(f.table(session, "silver/events").exists()).isFalse();
      // the failure is also on disk, where `sluice status` (another process) reads it
      var config = f.config("{every: 1 hour}");
      assertThat(RunLog.read(session, config, config.pipeline(BRONZE).orElseThrow())).hasValueSatisfying(r -> {
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.attempt()).isEqualTo(3);
        assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("injected failure in bronze batch 0"));
      });

      // bronze recovers on a manual run; silver and gold follow it
      BatchInterceptor.REGISTRY.clear();
      service.trigger(BRONZE);
      ServiceFixture.await("gold after bronze recovered", Duration.ofSeconds(20), () -> service.lastRun(GOLD).isPresent());
      assertThat(service.lastRun(BRONZE)).hasValueSatisfying(r -> {
        assertThat(r.succeeded()).isTrue();
        assertThat(r.cause()).isEqualTo(Cause.MANUAL);
        assertThat(r.error()).isEmpty();
      });
      f.check(session);
    }
  }

  @Test
  void aDownstreamWithItsOwnScheduleIsSkippedWhileItsUpstreamsLatestRunFailed() throws InterruptedException {
    ServiceFixture f = new ServiceFixture(dir);
    f.land(1, 5);
    BatchInterceptor.REGISTRY.put(BRONZE, (step, batchId) -> {
      if (step == BatchInterceptor.Step.BEFORE_SINK) {
        throw new IllegalStateException("injected failure in bronze");
      }
    });
    try (SluiceSession session = SluiceSession.create();
        SluiceService service = SluiceService.start(f.config("{every: 1 hour}", "{every: 1 second}"), session,
            ServiceOptions.defaults().withRetry(RetryPolicy.none()))) {
      ServiceFixture.await("bronze to fail", Duration.ofSeconds(20), () -> service.lastRun(BRONZE).isPresent());
      RunRecord failed = service.lastRun(BRONZE).orElseThrow();
      assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(service.nextFire(SILVER)).as("silver keeps its schedule").isPresent();
      Thread.sleep(2500);   // two or three fires of silver's schedule
      assertThat(service.runs(SILVER)).as("silver runs that started after bronze failed")
          .filteredOn(r -> r.start().isAfter(failed.end())).isEmpty();
      assertThat(service.runs(BRONZE)).hasSize(1);
    }
  }

  @Test
  void theDefaultRetryPolicyIsThreeAttemptsWithExponentialBackoffFromOneSecond() {
    RetryPolicy p = ServiceOptions.defaults().retry();
    assertThat(p.attempts()).isEqualTo(3);
    assertThat(p.retries(2)).isTrue();
    assertThat(p.retries(3)).isFalse();
    assertThat(p.backoff(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(p.backoff(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(p.backoff(30)).isEqualTo(Duration.ofMinutes(5));
    assertThat(RetryPolicy.none().retries(1)).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, 1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Retry attempts must be at least 1 (one try, no retries), got 0");
  }
}
