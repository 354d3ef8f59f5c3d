package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.stateful.Encoders;
import dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.GroupState;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.ingestion.stateful.MapGroupsWithStateFunction;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's StructuredSessionization example (mapGroupsWithState, ProcessingTimeTimeout) and its alerts example
 * (flatMapGroupsWithState, EventTimeTimeout) on a manual clock: timeouts fire exactly when Spark's rules say
 * (strictly after the timeout, never for a key with data in the batch, in a no-data batch when nothing arrives),
 * across restarts (every availableNow run is a new run over the same checkpoint).
 */
class GroupStateTimeoutTest {
  static final StructType EVENTS = StructType.of(StructField.of("user", PrimitiveType.STRING),
      StructField.of("ts", PrimitiveType.TIMESTAMP));

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock(1_000);
  private final SluiceSession session = SluiceSession.builder().clock(clock).build();
  private final String streamName = "sessions-" + System.nanoTime();
  private final MemoryStream input = MemoryStream.named(streamName, EVENTS);
  private final BatchOutputs outputs = new BatchOutputs();

  @AfterEach
  void close() {
    MemoryStream.remove(streamName);
    session.close();
  }

  /** The state of Spark's example: events seen and the first and last event time of the session. */
  record SessionInfo(long numEvents, long startMs, long endMs) {}

  /** What the example emits per session and batch. */
  record SessionUpdate(String id, long durationMs, long numEvents, boolean expired) {}

  /** Spark's JavaStructuredSessionization function, unchanged but for the types. */
  static final class Sessionize implements MapGroupsWithStateFunction<SessionInfo, SessionUpdate> {
    @Override
    public SessionUpdate call(Row key, Iterator<Row> events, GroupState<SessionInfo> state) {
      String id = (String) key.get(0);
      if (state.hasTimedOut()) {
        SessionInfo s = state.get();
        state.remove();
        return new SessionUpdate(id, s.endMs() - s.startMs(), s.numEvents(), true);
      }
      long n = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      while (events.hasNext()) {
        long t = ((Instant) events.next().get(1)).toEpochMilli();
        n++;
        min = Math.min(min, t);
        max = Math.max(max, t);
      }
      SessionInfo updated = state.exists()
          ? new SessionInfo(state.get().numEvents() + n, Math.min(state.get().startMs(), min),
              Math.max(state.get().endMs(), max))
          : new SessionInfo(n, min, max);
      state.update(updated);
      state.setTimeoutDuration("10 seconds");
      return new SessionUpdate(id, updated.endMs() - updated.startMs(), updated.numEvents(), false);
    }
  }

  private StreamFrame sessions() {
    return session.readStream().format("memory").option("name", streamName).load().groupByKey("user")
        .mapGroupsWithState(new Sessionize(), Encoders.record(SessionInfo.class), Encoders.record(SessionUpdate.class),
            GroupStateTimeout.ProcessingTimeTimeout());
  }

  private StreamingQuery start(Trigger trigger) {
    return sessions().writeStream().queryName("sessions").outputMode("update").trigger(trigger)
        .option("checkpointLocation", dir.resolve("ck").toString()).foreachBatch(outputs).start();
  }

  private void runAvailableNow() {
    start(Trigger.availableNow()).awaitTermination();
  }

  private static Row update(String id, long duration, long n, boolean expired) {
    return Row.of(id, duration, n, expired);
  }

  private void add(String user, long tsMs) {
    input.addData(Row.of(user, Instant.ofEpochMilli(tsMs)));
  }

  @Test
  void sessionsTimeOutExactlyWhenTheProcessingTimePassesTheirTimeout() {
    add("a", 1_000);
    add("a", 2_000);
    add("b", 1_500);
    runAvailableNow();
    assertThat(outputs.batch(0)).containsExactlyInAnyOrder(update("a", 1_000, 2, false), update("b", 0, 1, false));

    clock.set(5_000); // a's timeout moves to 15 000, b's stays at 11 000
    add("a", 3_000);
    runAvailableNow();
    assertThat(outputs.batch(1)).containsExactly(update("a", 2_000, 3, false));

    clock.set(11_000); // a timeout fires only when the time is strictly after it: no batch yet
    runAvailableNow();
    assertThat(outputs.batchCount()).isEqualTo(2);

    clock.set(11_001); // no data, but b's timeout is due: a no-data batch runs for it
    runAvailableNow();
    assertThat(outputs.batch(2)).containsExactly(update("b", 0, 1, true));

    clock.set(20_000); // a's timeout (15 000) passed, but a has data in this batch: it is not timed out
    add("a", 19_000);
    runAvailableNow();
    assertThat(outputs.batch(3)).containsExactly(update("a", 18_000, 4, false));

    // A running query with no data at all: the runner schedules the no-data batch itself when the clock passes 30 000.
    StreamingQuery running = start(Trigger.processingTime("0 seconds"));
    running.processAllAvailable();
    assertThat(outputs.batchCount()).isEqualTo(4);
    clock.set(30_001);
    running.processAllAvailable();
    running.stop();
    assertThat(running.exception()).isEmpty();
    assertThat(outputs.batch(4)).containsExactly(update("a", 18_000, 4, true));
    assertThat(running.lastProgress().orElseThrow().stateOperators().get(0).numRowsTotal()).isZero();
  }

  /** Spark's flatMapGroupsWithState alert example: alert once per user when a session goes quiet, by event time. */
  static final class QuietAlerts implements FlatMapGroupsWithStateFunction<Long, String> {
    @Override
    public Iterator<String> call(Row key, Iterator<Row> events, GroupState<Long> state) {
      if (state.hasTimedOut()) {
        long last = state.get();
        state.remove();
        return List.of("quiet " + key.get(0) + " after " + last).iterator();
      }
      long max = state.getOption().orElse(Long.MIN_VALUE);
      while (events.hasNext()) {
        max = Math.max(max, ((Instant) events.next().get(1)).toEpochMilli());
      }
      state.update(max);
      state.setTimeoutTimestamp(max + 5_000);
      return List.<String>of().iterator();
    }
  }

  @Test
  void eventTimeTimeoutsFireWhenTheWatermarkPassesThemAndLateRowsAreDropped() {
    StreamFrame alerts = session.readStream().format("memory").option("name", streamName).load()
        .withWatermark("ts", "10 seconds").groupByKey("user")
        .flatMapGroupsWithState(new QuietAlerts(), OutputMode.APPEND, Encoders.LONG(), Encoders.STRING(),
            GroupStateTimeout.EventTimeTimeout());
    Runnable run = () -> alerts.writeStream().queryName("alerts").outputMode("append").trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("ck").toString()).foreachBatch(outputs).start().awaitTermination();

    add("a", 100_000);
    run.run(); // watermark after it: 90 000; a times out when the watermark is past 105 000
    add("b", 115_000);
    run.run(); // watermark 105 000: not past a's 105 000 yet
    assertThat(outputs.all()).isEmpty();
    add("b", 116_000);
    add("c", 104_000); // older than the watermark in force (105 000): late, dropped
    run.run();
    // The batch moved the watermark to 106 000 > 105 000: the same run ends with a no-data batch firing a's timeout.
    assertThat(outputs.batch(2)).isEmpty();
    assertThat(outputs.batch(3)).containsExactly(Row.of("quiet a after 100000"));
    run.run();
    assertThat(outputs.batchCount()).isEqualTo(4);
    assertThat(outputs.all()).containsExactly(Row.of("quiet a after 100000"));
  }

  @Test
  void groupStateFollowsSparksContract() {
    MapGroupsWithStateFunction<Long, String> probe = (key, values, state) -> {
      assertThatThrownBy(state::get).isInstanceOf(NoSuchElementException.class)
          .hasMessageContaining("not defined");
      assertThatThrownBy(() -> state.update(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("remove()");
      assertThatThrownBy(() -> state.setTimeoutDuration(1000)).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("ProcessingTimeTimeout");
      assertThatThrownBy(state::getCurrentWatermarkMs).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("withWatermark");
      assertThat(state.getCurrentProcessingTimeMs()).isEqualTo(1_000);
      return "ok";
    };
    add("a", 1);
    session.readStream().format("memory").option("name", streamName).load().groupByKey("user")
        .mapGroupsWithState(probe, Encoders.LONG(), Encoders.STRING()).writeStream().queryName("probe")
        .outputMode("update").trigger(Trigger.availableNow()).option("checkpointLocation", dir.resolve("ck").toString())
        .foreachBatch(outputs).start().awaitTermination();
    assertThat(outputs.all()).containsExactly(Row.of("ok"));
  }
}
