package dev.sluice.ingestion.internal.plan.dedup;

import static dev.sluice.ingestion.internal.plan.dedup.DedupHarness.SCHEMA;
import static dev.sluice.ingestion.internal.plan.dedup.DedupHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DropDuplicatesTest {
  private static StatefulTransform bind(List<String> cols, String eventTime) {
    return DedupSpec.dropDuplicates(cols, eventTime, 5_000).bind(SCHEMA);
  }

  @Test
  void firstRowOfAKeyPassesAcrossBatchesAndStateIsKeptWithoutWatermark() {
    DedupHarness h = new DedupHarness(bind(List.of("id"), null));
    Row a1 = row("a", 1, 1_000);
    Row b2 = row("b", 2, 2_000);
    assertThat(h.batch(0, a1, row("a", 3, 3_000), b2)).containsExactly(a1, b2);
    Row c5 = row("c", 5, 1_000);
    assertThat(h.batch(0, row("a", 4, 9_000), c5, row("c", 6, 1_000))).containsExactly(c5);
    assertThat(h.store.size()).isEqualTo(3);
    assertThat(h.store.get(Row.of("a"))).isEqualTo(Row.of());
    assertThat(h.step.lastDroppedByWatermark()).isZero();
    assertThat(h.step.needsNoDataBatch(0, Long.MAX_VALUE / 2000)).isFalse();
  }

  @Test
  void noColumnsMeansTheWholeRow() {
    DedupHarness h = new DedupHarness(bind(List.of(), null));
    Row r = row("a", 1, 1_000);
    assertThat(h.batch(0, r, row("a", 1, 1_000), row("a", 1, 1_001))).containsExactly(r, row("a", 1, 1_001));
    assertThat(h.step.stateSchema().keySchema()).isEqualTo(SCHEMA);
    assertThat(h.step.fingerprint()).containsEntry("keys", "id,seq,ts");
  }

  @Test
  void aColumnNamedTwiceIsOneKeyColumnAndNamesResolveIgnoringCase() {
    StatefulTransform step = bind(List.of("ID", "id"), null);
    assertThat(step.stateSchema().keySchema().fieldNames()).containsExactly("id");
  }

  @Test
  void eventTimeInTheKeyEvictsStateOnceTheWatermarkPassesItAndDropsLateRows() {
    DedupHarness h = new DedupHarness(bind(List.of("id", "ts"), "ts"));
    Row a10 = row("a", 1, 10_000);
    Row b20 = row("b", 3, 20_000);
    assertThat(h.batch(0, a10, row("a", 2, 10_000), b20)).containsExactly(a10, b20);
    assertThat(h.store.size()).isEqualTo(2);
    // a@10s is evicted only by a watermark strictly after 10 s.
    assertThat(h.step.needsNoDataBatch(0, 10_000)).isFalse();
    assertThat(h.step.needsNoDataBatch(0, 10_001)).isTrue();

    assertThat(h.batch(10_000, row("a", 4, 10_000))).isEmpty();
    assertThat(h.step.lastDroppedByWatermark()).isZero();

    Row late = row("a", 5, 10_000);
    Row a15 = row("a", 6, 15_000);
    assertThat(h.batch(15_000, late, a15, row("a", 7, 15_000))).containsExactly(a15);
    assertThat(h.step.lastDroppedByWatermark()).isEqualTo(1);
    assertThat(h.late).containsExactly(late);
    assertThat(h.lateWatermarks).containsExactly(15_000L);
    assertThat(h.store.size()).isEqualTo(2);
    assertThat(h.store.metrics().numRowsRemoved()).isEqualTo(1);
    assertThat(h.step.needsNoDataBatch(15_000, 15_001)).isTrue();
    assertThat(h.step.needsNoDataBatch(15_000, 15_000)).isFalse();

    assertThat(h.batch(20_001)).isEmpty();
    assertThat(h.store.size()).isZero();
    assertThat(h.step.needsNoDataBatch(20_001, 99_000)).isFalse();
  }

  @Test
  void freshStepAssumesItsStoreMayHoldEvictableKeys() {
    StatefulTransform step = bind(List.of("id", "ts"), "ts");
    assertThat(step.needsNoDataBatch(1_000, 2_000)).isTrue();
    assertThat(step.needsNoDataBatch(2_000, 2_000)).isFalse();
  }

  @Test
  void eventTimeNotInTheKeyKeepsStateForeverButStillDropsLateRows() {
    DedupHarness h = new DedupHarness(bind(List.of("id"), "ts"));
    Row a10 = row("a", 1, 10_000);
    assertThat(h.batch(0, a10)).containsExactly(a10);
    Row late = row("b", 2, 5_000);
    assertThat(h.batch(60_000, late, row("a", 3, 70_000))).isEmpty();
    assertThat(h.late).containsExactly(late);
    assertThat(h.step.lastDroppedByWatermark()).isEqualTo(1);
    assertThat(h.store.size()).isEqualTo(1);
    assertThat(h.step.needsNoDataBatch(60_000, 120_000)).isFalse();
    assertThat(h.step.fingerprint()).containsExactly(
        org.assertj.core.api.Assertions.entry("operator", "dedupe"),
        org.assertj.core.api.Assertions.entry("keys", "id"),
        org.assertj.core.api.Assertions.entry("eventTime", "ts"));
  }

  @Test
  void nullEventTimeIsNeverLateNorEvicted() {
    DedupHarness h = new DedupHarness(bind(List.of("id", "ts"), "ts"));
    Row n = Row.of("a", 1L, null);
    assertThat(h.batch(50_000, n, Row.of("a", 2L, null))).containsExactly(n);
    assertThat(h.batch(90_000, Row.of("a", 3L, null))).isEmpty();
    assertThat(h.store.size()).isEqualTo(1);
    assertThat(h.late).isEmpty();
  }

  @Test
  void unknownColumnIsNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> bind(List.of("id", "user"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dropDuplicates: unknown column 'user'; the stream's columns are [id, seq, ts]; fix the column name");
    assertThatThrownBy(() -> bind(List.of("id"), "event_time"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown event-time (watermark) column 'event_time'")
        .hasMessageContaining("[id, seq, ts]");
  }

  @Test
  void eventTimeColumnMustBeATimestamp() {
    assertThatThrownBy(() -> DedupSpec.dropDuplicates(List.of("id"), "seq", 0).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the event-time column 'seq' is long, but a watermark needs a timestamp column")
        .hasMessageContaining("CAST(seq AS TIMESTAMP)");
  }

  @Test
  void describesItselfWithItsResolvedKeys() {
    StatefulTransform step = DedupSpec.dropDuplicates(List.of("ID"), null, 0)
        .bind(StructType.empty().add("id", PrimitiveType.STRING));
    assertThat(step.describe()).isEqualTo("DropDuplicates[id]");
    assertThat(step.operatorName()).isEqualTo("dedupe");
    assertThat(step.fingerprint()).containsEntry("eventTime", "none");
  }
}
