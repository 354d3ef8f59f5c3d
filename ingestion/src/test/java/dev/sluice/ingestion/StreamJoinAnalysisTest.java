package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyzer's rules for stream-stream joins, unions and session windows (each refusal names the operator, the mode
 * and the fix), the checkpoint fingerprint of a join, per-side state metrics and Spark's sessionization example.
 */
class StreamJoinAnalysisTest {
  @TempDir
  Path dir;
  private SluiceSession session;
  private MemoryStream imp;
  private MemoryStream click;

  @BeforeEach
  void open() {
    session = SluiceSession.create();
    imp = MemoryStream.named("a-imp", StreamStreamJoinHarness.IMPRESSIONS);
    click = MemoryStream.named("a-click", StreamStreamJoinHarness.CLICKS);
  }

  @AfterEach
  void close() {
    MemoryStream.remove("a-imp");
    MemoryStream.remove("a-click");
    session.close();
  }

  private StreamFrame impressions(boolean watermark) {
    StreamFrame f = session.readStream().format("memory").option("name", "a-imp").load();
    return (watermark ? f.withWatermark("imp_ts", "10 seconds") : f).alias("imp");
  }

  private StreamFrame clicks(boolean watermark) {
    StreamFrame f = session.readStream().format("memory").option("name", "a-click").load();
    return (watermark ? f.withWatermark("click_ts", "10 seconds") : f).alias("clicks");
  }

  private static final String BOUNDED = "imp.ad = clicks.click_ad AND clicks.click_ts >= imp.imp_ts"
      + " AND clicks.click_ts <= imp.imp_ts + INTERVAL 1 MINUTE";

  @Test
  void outerJoinsNeedWatermarksOnBothSidesAndATimeBound() {
    assertThatThrownBy(() -> impressions(true).join(clicks(false), BOUNDED, "left_outer").writeStream()
        .format("memory").queryName("x").start())
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("LeftOuter join(")
        .hasMessageContaining("(in append mode) needs a watermark on both streams, but the right one has none")
        .hasMessageContaining("withWatermark(eventTimeColumn, delay)");
    assertThatThrownBy(() -> impressions(true).join(clicks(true), "imp.ad = clicks.click_ad AND clicks.click_ts >="
        + " imp.imp_ts", "left_outer").writeStream().format("memory").queryName("x").start())
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("symmetricHashJoin")
        .hasMessageContaining("LeftOuter join (output mode append) needs a time-range condition")
        .hasMessageContaining("an upper bound on click_ts - imp_ts")
        .hasMessageContaining("click_ts BETWEEN imp_ts AND imp_ts + INTERVAL 1 HOUR");
    assertThatThrownBy(() -> impressions(true).join(clicks(true), "clicks.click_ts >= imp.imp_ts", "inner")
        .writeStream().format("memory").queryName("x").start())
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("has no equality between a left and a right column");
    assertThatThrownBy(() -> impressions(true).join(clicks(true), BOUNDED, "cross"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("use inner, left_outer, right_outer, full_outer or left_semi");
  }

  @Test
  void streamStreamJoinsRunOnlyInAppendMode() {
    assertThatThrownBy(() -> impressions(true).join(clicks(true), BOUNDED, "inner").writeStream()
        .outputMode("update").option("checkpointLocation", dir.resolve("u").toString())
        .foreachBatch((b, id) -> { }).start())
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("Inner join(" + BOUNDED + ") between two streams is not supported in update output mode,"
            + " only in append");
  }

  @Test
  void aChangedJoinRefusesToStartListingTheDifference() {
    String out = dir.resolve("out").toString();
    String checkpoint = dir.resolve("cp").toString();
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    imp.addData(Row.of("a", t, 1L));
    click.addData(Row.of("a", t.plusSeconds(5), 2L));
    impressions(true).join(clicks(true), BOUNDED, "inner").writeStream().trigger(Trigger.availableNow())
        .option("checkpointLocation", checkpoint).toTable(out).awaitTermination();
    assertThat(EventStreams.rows(session.table(out))).containsExactly(Row.of("a", t, 1L, "a", t.plusSeconds(5), 2L));
    assertThatThrownBy(() -> impressions(true).join(clicks(true), BOUNDED, "left_outer").writeStream()
        .trigger(Trigger.availableNow()).option("checkpointLocation", checkpoint).toTable(out))
        .isInstanceOf(CheckpointIncompatibleException.class)
        .hasMessageContaining("changed step 0 stream_join type: Inner → LeftOuter");
  }

  @Test
  void unionOfStreamsWithTheSameColumnTypes() {
    MemoryStream more = MemoryStream.named("a-imp2", StreamStreamJoinHarness.IMPRESSIONS);
    try {
      Instant t = Instant.parse("2024-01-01T00:00:00Z");
      imp.addData(Row.of("a", t, 1L));
      more.addData(Row.of("b", t, 2L));
      click.addData(Row.of("c", t, 3L));
      StreamFrame other = session.readStream().format("memory").option("name", "a-imp2").load().filter("imp_id > 0");
      StreamingQuery q = impressions(false).union(other, clicks(false)).writeStream().format("memory")
          .queryName("u").trigger(Trigger.availableNow()).start();
      q.awaitTermination();
      assertThat(session.memoryTable("u")).containsExactlyInAnyOrder(Row.of("a", t, 1L), Row.of("b", t, 2L),
          Row.of("c", t, 3L));
      StreamFrame narrow = clicks(false).select("click_ad");
      assertThatThrownBy(() -> impressions(false).union(narrow).writeStream().format("memory").queryName("v").start())
          .isInstanceOf(AnalysisException.class)
          .hasMessageContaining("union: stream 2 has columns [click_ad string]")
          .hasMessageContaining("same number of columns with the same types");
    } finally {
      MemoryStream.remove("a-imp2");
    }
  }

  /** Spark's sessionization example: sessions per user with a 10-minute gap, emitted as they close (append). */
  @Test
  void sparksSessionizationExample() {
    MemoryStream events = MemoryStream.named("a-events", StreamStreamJoinHarness.IMPRESSIONS);
    try {
      Instant t = Instant.parse("2024-01-01T00:00:00Z");
      events.addData(Row.of("u1", t, 1L), Row.of("u1", t.plusSeconds(300), 2L), Row.of("u2", t, 3L),
          Row.of("u1", t.plusSeconds(1200), 4L));
      events.addData(Row.of("zz", t.plusSeconds(7200), 5L));
      StreamFrame f = session.readStream().format("memory").option("name", "a-events")
          .option("maxRecordsPerTrigger", "4").load()
          .withWatermark("imp_ts", "10 minutes")
          .groupBy("session_window(imp_ts, '10 minutes')", "ad").agg("count(*) AS events")
          .selectExpr("ad AS user", "session_window.start AS started", "session_window.end AS ended", "events");
      assertThatThrownBy(() -> f.writeStream().format("memory").queryName("s").outputMode("update").start())
          .isInstanceOf(AnalysisException.class)
          .hasMessageContaining("Update output mode is not supported for groupBy(session_window(imp_ts, '10 minutes'),"
              + " ad).agg(count(*) AS events) (a session window, as in Spark)");
      StreamingQuery q = f.writeStream().format("memory").queryName("s").trigger(Trigger.availableNow()).start();
      q.awaitTermination();
      assertThat(session.memoryTable("s")).containsExactlyInAnyOrder(
          Row.of("u1", t, t.plusSeconds(900), 2L), Row.of("u2", t, t.plusSeconds(600), 1L),
          Row.of("u1", t.plusSeconds(1200), t.plusSeconds(1800), 1L));
      assertThat(q.recentProgress()).anySatisfy(p -> assertThat(p.stateOperators()).singleElement()
          .satisfies(s -> assertThat(s.operatorName()).isEqualTo("sessionWindowStateStoreSaveExec")));
    } finally {
      MemoryStream.remove("a-events");
    }
  }
}
