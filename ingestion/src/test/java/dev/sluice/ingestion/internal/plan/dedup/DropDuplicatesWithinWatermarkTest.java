package dev.sluice.ingestion.internal.plan.dedup;

import static dev.sluice.ingestion.internal.plan.dedup.DedupHarness.SCHEMA;
import static dev.sluice.ingestion.internal.plan.dedup.DedupHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.table.data.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

class DropDuplicatesWithinWatermarkTest {
  private static StatefulTransform bind(long delayMs) {
    return DedupSpec.dropDuplicatesWithinWatermark(List.of("id"), "ts", delayMs).bind(SCHEMA);
  }

  @Test
  void keyExpiresExactlyWhenTheWatermarkReachesFirstEventTimePlusDelay() {
    DedupHarness h = new DedupHarness(bind(5_000));
    Row first = row("a", 1, 10_000);
    assertThat(h.batch(0, first, row("a", 2, 12_000))).containsExactly(first);
    assertThat(h.store.get(Row.of("a"))).isEqualTo(Row.of(15_000_000L));
    assertThat(h.step.needsNoDataBatch(0, 14_999)).isFalse();
    assertThat(h.step.needsNoDataBatch(0, 15_000)).isTrue();

    // One millisecond before the expiry the key is still in state: a duplicate is dropped, not late.
    assertThat(h.batch(14_999, row("a", 3, 14_999))).isEmpty();
    assertThat(h.step.lastDroppedByWatermark()).isZero();
    assertThat(h.store.size()).isEqualTo(1);

    Row again = row("a", 4, 15_000);
    Row late = row("a", 5, 14_999);
    assertThat(h.batch(15_000, late, again)).containsExactly(again);
    assertThat(h.step.lastDroppedByWatermark()).isEqualTo(1);
    assertThat(h.late).containsExactly(late);
    assertThat(h.store.get(Row.of("a"))).isEqualTo(Row.of(20_000_000L));
    assertThat(h.store.metrics().numRowsRemoved()).isEqualTo(1);
  }

  @Test
  void laterDuplicatesDoNotExtendTheExpiry() {
    DedupHarness h = new DedupHarness(bind(5_000));
    h.batch(0, row("a", 1, 10_000));
    h.batch(9_000, row("a", 2, 14_000));
    assertThat(h.store.get(Row.of("a"))).isEqualTo(Row.of(15_000_000L));
  }

  @Test
  void noDataBatchEvictsAndTheHorizonFollowsTheStore() {
    DedupHarness h = new DedupHarness(bind(1_000));
    h.batch(0, row("a", 1, 10_000), row("b", 2, 20_000));
    assertThat(h.step.needsNoDataBatch(0, 11_000)).isTrue();
    assertThat(h.batch(11_000)).isEmpty();
    assertThat(h.store.size()).isEqualTo(1);
    assertThat(h.step.needsNoDataBatch(11_000, 20_999)).isFalse();
    assertThat(h.step.needsNoDataBatch(11_000, 21_000)).isTrue();
  }

  @Test
  void nullEventTimeIsNeverLateAndItsKeyNeverExpires() {
    DedupHarness h = new DedupHarness(bind(1_000));
    Row n = Row.of("a", 1L, null);
    assertThat(h.batch(5_000, n, Row.of("a", 2L, null))).containsExactly(n);
    assertThat(h.batch(Long.MAX_VALUE / 4000, Row.of("a", 3L, null))).isEmpty();
    assertThat(h.late).isEmpty();
  }

  @Test
  void needsAWatermark() {
    assertThatThrownBy(() -> DedupSpec.dropDuplicatesWithinWatermark(List.of("id"), null, 0).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dropDuplicatesWithinWatermark[id] needs a watermark, but the stream has none: its state expires"
            + " by event time. Call withWatermark(eventTimeColumn, delay) before dropDuplicatesWithinWatermark, or"
            + " use dropDuplicates");
  }

  @Test
  void unknownKeyColumnIsNamed() {
    assertThatThrownBy(() -> DedupSpec.dropDuplicatesWithinWatermark(List.of("nope"), "ts", 0).bind(SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dropDuplicatesWithinWatermark: unknown column 'nope'; the stream's columns are [id, seq, ts];"
            + " fix the column name");
  }

  @Test
  void fingerprintAndNames() {
    StatefulTransform step = bind(5_000);
    assertThat(step.operatorName()).isEqualTo("dedupeWithinWatermark");
    assertThat(step.fingerprint()).containsExactly(entry("operator", "dedupeWithinWatermark"), entry("keys", "id"),
        entry("eventTime", "ts"));
    assertThat(step.stateSchema().valueSchema().fieldNames()).containsExactly("expiresAtMicros");
    assertThat(step.describe()).isEqualTo("DropDuplicatesWithinWatermark[id]");
  }
}
