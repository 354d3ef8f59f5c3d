package dev.sluice.orchestration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.SluiceSession;
import dev.sluice.ingestion.internal.runner.BatchInterceptor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The orders scenario on local disk: layers exact, ledger balanced, re-runs idempotent, crashes recovered. */
class OrdersScenarioTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    BatchInterceptor.REGISTRY.clear();
  }

  private OrdersScenario scenario() {
    return new OrdersScenario(dir, dir.resolve("warehouse").toUri().toString(), Map.of());
  }

  @Test
  void layersAreExactAndReRunsChangeNothing() {
    OrdersScenario s = scenario();
    s.land(12, 250);
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
      s.check(session);
      Map<String, Long> before = s.versions(session);
      s.run(session);
      assertThat(s.versions(session)).as("no new input, no new commits").isEqualTo(before);
      s.land(3, 250);
      s.run(session);
      s.check(session);
      // the example's silver has delta.enableDeletionVectors on: its MERGEs marked updated rows, not rewrote files
      assertThat(s.table(session, "silver/orders").latestSnapshot().minReaderVersion()).isEqualTo(3);
      assertThat(s.table(session, "silver/orders").history(10_000)).anySatisfy(h ->
          assertThat(Long.parseLong(h.operationMetrics().getOrDefault("numTargetDeletionVectorsAdded", "0"))).isPositive());
    }
  }

  @Test
  void aCrashInTheMiddleOfAnyLayerIsRecoveredByARerun() {
    OrdersScenario s = scenario();
    s.land(6, 200);
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      s.run(session);
      for (String pipeline : List.of("orders_bronze", "orders_silver", "revenue_gold")) {
        s.land(2, 200);
        AtomicBoolean crashed = new AtomicBoolean();
        BatchInterceptor.REGISTRY.put(pipeline, (step, batchId) -> {
          if (step == BatchInterceptor.Step.AFTER_SINK && crashed.compareAndSet(false, true)) {
            throw new IllegalStateException("injected crash in " + pipeline);
          }
        });
        List<PipelineRunner.RunResult> failed = s.run(session);
        assertThat(failed).anySatisfy(r -> assertThat(r.failure()).hasValueSatisfying(
            e -> assertThat(e).hasStackTraceContaining("injected crash in " + pipeline)));
        BatchInterceptor.REGISTRY.clear();
        assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
        s.check(session);
      }
    }
  }

  /**
   * Deleting a pipeline's checkpoint (the way to reprocess) and landing a new file: the new rows land exactly
   * once in every layer, and nothing already there is doubled (max_files_per_trigger 10 < the 12 files, so the
   * fresh checkpoint runs several batches whose ids the old one used too).
   */
  @ParameterizedTest
  @ValueSource(strings = {"bronze/orders:orders_bronze", "silver/orders:orders_silver", "gold/revenue:revenue_gold"})
  void aResetCheckpointReprocessesExactly(String tableAndPipeline) {
    String[] t = tableAndPipeline.split(":");
    OrdersScenario s = scenario();
    s.land(12, 250);
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
      s.resetCheckpoint(t[0], t[1]);
      s.land(1, 100);
      assertThat(s.run(session)).allSatisfy(r -> assertThat(r.succeeded()).as(r.toString()).isTrue());
      s.check(session);
    }
  }

  @Test
  void unknownPipelineNameIsRefused() {
    OrdersScenario s = scenario();
    try (SluiceSession session = Sessions.forConfig(s.config)) {
      assertThatThrownBy(() -> PipelineRunner.runAvailableNow(session, s.config, List.of("orders_brnze")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("orders_bronze");
    }
  }
}
