package dev.sluice.silver;

import dev.sluice.ingestion.RowLedger;
import static dev.sluice.silver.SilverFixture.at;
import static dev.sluice.silver.SilverFixture.order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ingestion.QueryProgress;
import dev.sluice.ingestion.SluiceSession;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, case 2: one event time far in the future (epoch milliseconds read as seconds: year 55970) must not
 * move the dedup watermark and drop every later row as late. It is quarantined ({@code max_future_skew}).
 */
class SilverFutureEventTimeTest {
  static final Instant NOW = at(180);

  @TempDir Path dir;
  private final SluiceSession session = SluiceSession.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();

  @AfterEach
  void close() {
    session.close();
  }

  private SilverFixture fixture(String watermark) {
    return new SilverFixture(dir, session, "    dedup: {keys: [order_id, updated_at], watermark: " + watermark + "}\n",
        "{keys: [order_id], sequence_by: updated_at}");
  }

  private static Row withEventTime(Row order, Instant eventTime) {
    Object[] v = order.toArray();
    v[4] = eventTime;
    return Row.of(v);
  }

  private static List<QueryProgress> withInput(List<QueryProgress> progress) {
    return progress.stream().filter(p -> p.numInputRows() > 0).toList();
  }

  @Test
  void anEpochMillisecondEventTimeIsQuarantinedAndLaterRowsAreWritten() {
    SilverFixture f = fixture("{column: event_time, delay: 10 minutes}");
    Instant year55970 = Instant.ofEpochSecond(1704101640000L);
    f.bronze(order("o1", "1", "a", 0, 100), withEventTime(order("o2", "1", "a", 0, 0), year55970),
        order("o3", "1", "a", 0, 101));
    f.run();
    f.bronze(order("o4", "1", "a", 0, 110), order("o5", "1", "a", 0, 111), order("o6", "1", "a", 0, 112),
        order("o7", "1", "a", 0, 113), order("o8", "1", "a", 0, 114));
    f.run();

    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id"))
        .containsExactly("o1", "o3", "o4", "o5", "o6", "o7", "o8");
    assertThat(SilverFixture.rows(f.quarantine())).singleElement().satisfies(m -> assertThat(m)
        .containsEntry("order_id", "o2").containsEntry("event_time", year55970)
        .containsEntry(QuarantineRows.FAILED, "max_future_skew").containsEntry(QuarantineRows.BATCH_ID, 0L));
    List<QueryProgress> p = withInput(f.progress());
    assertThat(p.get(0).observedMetrics()).containsEntry(RowLedger.ROWS_IN, 3L).containsEntry(RowLedger.WRITTEN, 2L)
        .containsEntry(RowLedger.QUARANTINED, 1L);
    assertThat(p.get(1).observedMetrics()).containsEntry(RowLedger.ROWS_IN, 5L).containsEntry(RowLedger.WRITTEN, 5L)
        .containsEntry(RowLedger.LATE, 0L);
    assertThat(p.get(1).eventTime()).containsEntry("watermark", at(91).toString());
    f.progress().forEach(x -> SilverFixture.assertBalanced(x.observedMetrics()));
  }

  @Test
  void maxFutureSkewIsConfigurable() {
    SilverFixture f = fixture("{column: event_time, delay: 10 minutes, max_future_skew: 30 minutes}");
    f.bronze(order("o1", "1", "a", 0, 200), order("o2", "1", "a", 0, 211));
    f.run();

    // now is minute 180: 200 is within 30 minutes of it, 211 is not
    assertThat(SilverFixture.rows(f.silver())).extracting(m -> m.get("order_id")).containsExactly("o1");
    assertThat(SilverFixture.rows(f.quarantine())).extracting(m -> m.get("order_id")).containsExactly("o2");
    assertThat(withInput(f.progress()).get(0).eventTime()).containsEntry("max", at(200).toString())
        .doesNotContainKey("futureRows");
  }
}
