package dev.sluice.ingestion.internal.plan.aggregate;

import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.count;
import static dev.sluice.ingestion.internal.plan.aggregate.AggregateSpec.sum;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.LateRows;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.internal.plan.Transform.BatchInfo;
import dev.sluice.ingestion.state.MapStateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutputModesTest {
  private static final StructType INPUT = StructType.of(StructField.of("ts", PrimitiveType.TIMESTAMP),
      StructField.of("user", PrimitiveType.STRING), StructField.of("amount", PrimitiveType.LONG));
  private static final WindowSpec TEN_MINUTES = WindowSpec.tumbling("ts", Duration.ofMinutes(10));
  private static final WatermarkSpec WATERMARK = new WatermarkSpec("ts", Duration.ofMinutes(5));
  private static final long MIN_MS = 60_000L;

  private static Instant at(long minutes) {
    return Instant.ofEpochMilli(minutes * MIN_MS);
  }

  private static Row event(long minutes, String user, long amount) {
    return Row.of(at(minutes), user, amount);
  }

  private static Row window(long startMinutes, long endMinutes) {
    return Row.of(at(startMinutes), at(endMinutes));
  }

  private static AggregationHarness windowed(OutputMode mode) {
    return AggregationHarness.of(INPUT, mode, TEN_MINUTES, WATERMARK, List.of("user"), count(), sum("amount"));
  }

  @Test
  void completeEmitsEveryGroupEachBatchAndNeverEvictsOrDrops() {
    AggregationHarness h = windowed(OutputMode.COMPLETE);
    assertThat(h.run(0, event(1, "a", 1), event(12, "a", 2))).containsExactlyInAnyOrder(
        Row.of(window(0, 10), "a", 1L, 1L), Row.of(window(10, 20), "a", 1L, 2L));
    assertThat(h.run(30 * MIN_MS, event(3, "a", 5))).containsExactlyInAnyOrder(
        Row.of(window(0, 10), "a", 2L, 6L), Row.of(window(10, 20), "a", 1L, 2L));
    assertThat(h.step.lastDroppedByWatermark()).isZero();
    assertThat(h.late).isEmpty();
    assertThat(h.stateSize()).isEqualTo(2);
    assertThat(h.step.needsNoDataBatch(0, 60 * MIN_MS)).isFalse();
  }

  @Test
  void updateEmitsOnlyChangedGroupsThenEvictsFinalOnes() {
    AggregationHarness h = windowed(OutputMode.UPDATE);
    assertThat(h.run(0, event(1, "a", 1), event(12, "b", 2))).hasSize(2);
    assertThat(h.run(0, event(14, "b", 3))).containsExactly(Row.of(window(10, 20), "b", 2L, 5L));
    assertThat(h.run(10 * MIN_MS, event(15, "b", 1))).containsExactly(Row.of(window(10, 20), "b", 3L, 6L));
    assertThat(h.stateSize()).as("window [0, 10) ended at the watermark").isEqualTo(1);
    assertThat(h.run(10 * MIN_MS, event(9, "a", 100))).isEmpty();
    assertThat(h.step.lastDroppedByWatermark()).isEqualTo(1);
    assertThat(h.late).containsExactly(event(9, "a", 100));
    h.run(10 * MIN_MS, event(16, "b", 1));
    assertThat(h.step.lastDroppedByWatermark()).as("counted per batch").isZero();
  }

  @Test
  void appendEmitsAWindowOnceWhenTheWatermarkPassesItsEnd() {
    AggregationHarness h = windowed(OutputMode.APPEND);
    assertThat(h.run(0, event(1, "a", 1), event(2, "a", 2), event(11, "a", 4))).isEmpty();
    assertThat(h.run(9 * MIN_MS, event(3, "a", 8))).as("the watermark is before the window's end").isEmpty();
    assertThat(h.run(10 * MIN_MS, event(4, "a", 16), event(19, "a", 32)))
        .containsExactly(Row.of(window(0, 10), "a", 3L, 11L));
    assertThat(h.late).containsExactly(event(4, "a", 16));
    assertThat(h.lateWatermarks).containsExactly(10 * MIN_MS);
    assertThat(h.lateOperators).containsExactly("stateStoreSave");
    assertThat(h.lateSchemas).containsExactly(INPUT);
    assertThat(h.run(15 * MIN_MS)).as("emitted windows are gone from state").isEmpty();
    assertThat(h.run(25 * MIN_MS)).containsExactly(Row.of(window(10, 20), "a", 2L, 36L));
    assertThat(h.stateSize()).isZero();
  }

  @Test
  void slidingRowsCountInTheirOpenWindowsOnly() {
    AggregationHarness h = AggregationHarness.of(INPUT, OutputMode.APPEND,
        WindowSpec.sliding("ts", Duration.ofMinutes(10), Duration.ofMinutes(5)), WATERMARK, List.of(), count());
    h.run(0, event(7, "a", 1));
    // The watermark closes [0, 10); a row at 8 minutes still belongs to the open [5, 15).
    assertThat(h.run(10 * MIN_MS, event(8, "a", 1))).containsExactly(Row.of(window(0, 10), 1L));
    assertThat(h.step.lastDroppedByWatermark()).isZero();
    assertThat(h.run(15 * MIN_MS)).containsExactly(Row.of(window(5, 15), 2L));
  }

  @Test
  void groupingByTheWatermarkedColumnItselfMakesGroupsFinal() {
    AggregationHarness h = AggregationHarness.of(INPUT, OutputMode.APPEND, null, WATERMARK, List.of("ts"), count());
    assertThat(h.run(0, event(1, "a", 1), event(1, "b", 1), event(3, "a", 1))).isEmpty();
    assertThat(h.run(1 * MIN_MS, event(1, "c", 1))).containsExactly(Row.of(at(1), 2L));
    assertThat(h.late).containsExactly(event(1, "c", 1));
    assertThat(h.run(5 * MIN_MS)).containsExactly(Row.of(at(3), 1L));
  }

  @Test
  void rowsWithoutEventTimeAreLeftOutOfWindowsButAreNotLate() {
    AggregationHarness h = windowed(OutputMode.UPDATE);
    assertThat(h.run(0, Row.of(null, "a", 1L), event(1, "a", 2))).containsExactly(Row.of(window(0, 10), "a", 1L, 2L));
    assertThat(h.step.lastDroppedByWatermark()).isZero();
    assertThat(h.late).isEmpty();
  }

  @Test
  void withoutAWatermarkNothingIsLateOrEvicted() {
    AggregationHarness h = AggregationHarness.of(INPUT, OutputMode.UPDATE, TEN_MINUTES, null, List.of(), count());
    h.run(0, event(1, "a", 1));
    assertThat(h.run(60 * MIN_MS, event(2, "a", 1))).containsExactly(Row.of(window(0, 10), 2L));
    assertThat(h.stateSize()).isEqualTo(1);
    assertThat(h.step.needsNoDataBatch(0, 60 * MIN_MS)).isFalse();
  }

  @Test
  void preEpochWindowsAreAlreadyFinalAtTheInitialWatermark() {
    // Spark's watermark starts at 0, so windows ending at or before the epoch are closed from the start.
    AggregationHarness h = windowed(OutputMode.UPDATE);
    assertThat(h.run(0, event(-5, "a", 1), event(-15, "a", 1))).isEmpty();
    assertThat(h.late).hasSize(2);
  }

  @Test
  void needsNoDataBatchOnlyWhenAGroupInStateBecomesFinal() {
    AggregationHarness h = windowed(OutputMode.APPEND);
    assertThat(h.step.needsNoDataBatch(0, MIN_MS)).as("unknown state: run to find out").isTrue();
    h.run(0, event(21, "a", 1));
    assertThat(h.step.needsNoDataBatch(0, 0)).isFalse();
    assertThat(h.step.needsNoDataBatch(0, 29 * MIN_MS)).isFalse();
    assertThat(h.step.needsNoDataBatch(0, 30 * MIN_MS)).isTrue();
    h.run(30 * MIN_MS);
    assertThat(h.step.needsNoDataBatch(30 * MIN_MS, 90 * MIN_MS)).as("state is empty").isFalse();
    assertThat(h.run(Long.MAX_VALUE, event(40, "a", 1))).as("a watermark beyond every time").isEmpty();
    assertThat(h.late).hasSize(1);
  }

  @Test
  void aRerunBatchRescansTheStateItWasGiven() {
    AggregationSpec spec = new AggregationSpec(List.of(), TEN_MINUTES, List.of(count()), OutputMode.APPEND, WATERMARK);
    StatefulTransform step = spec.bind(INPUT);
    MapStateStore first = new MapStateStore();
    apply(step, first, 0, event(1, "a", 1));
    MapStateStore second = first.next();
    assertThat(apply(step, second, 10 * MIN_MS, event(25, "a", 1))).hasSize(1);
    // The batch is re-run on version 1 restored (the window [0, 10) is back) after its commit failed.
    MapStateStore restored = new MapStateStore();
    apply(spec.bind(INPUT), restored, 0, event(1, "a", 1));
    assertThat(apply(step, restored.next(), 10 * MIN_MS)).containsExactly(Row.of(window(0, 10), 1L));
  }

  private static List<Row> apply(StatefulTransform step, MapStateStore store, long watermarkMs, Row... rows) {
    BatchInfo info = new BatchInfo(store.version() - 1, Instant.EPOCH, watermarkMs, s -> store, LateRows.NONE);
    return step.apply(new Batch(INPUT, List.of(rows)), info).rows();
  }
}
