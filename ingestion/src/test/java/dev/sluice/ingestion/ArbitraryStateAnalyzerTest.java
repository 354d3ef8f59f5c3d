package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.stateful.Encoders;
import dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.GroupState;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.table.data.Row;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spark's output-mode rules for arbitrary stateful operators, and the checkpoint fingerprint of the function. */
class ArbitraryStateAnalyzerTest {
  @TempDir
  Path dir;
  private final SluiceSession session = SluiceSession.create();
  private final String streamName = "analyzer-" + System.nanoTime();
  private final MemoryStream input = MemoryStream.named(streamName, GroupStateTimeoutTest.EVENTS);

  @AfterEach
  void close() {
    MemoryStream.remove(streamName);
    session.close();
  }

  /** Counts events per user. */
  static final class Count implements FlatMapGroupsWithStateFunction<Long, String> {
    @Override
    public Iterator<String> call(Row key, Iterator<Row> values, GroupState<Long> state) {
      long n = state.getOption().orElse(0L);
      while (values.hasNext()) {
        values.next();
        n++;
      }
      state.update(n);
      return List.of(key.get(0) + "=" + n).iterator();
    }
  }

  /** The same output, another class. */
  static final class OtherCount implements FlatMapGroupsWithStateFunction<Long, String> {
    @Override
    public Iterator<String> call(Row key, Iterator<Row> values, GroupState<Long> state) {
      return new Count().call(key, values, state);
    }
  }

  private StreamFrame events() {
    return session.readStream().format("memory").option("name", streamName).load();
  }

  private StreamingQuery start(StreamFrame frame, String mode) {
    return frame.writeStream().queryName("q").outputMode(mode).trigger(Trigger.availableNow())
        .option("checkpointLocation", dir.resolve("ck").toString()).foreachBatch((b, id) -> { }).start();
  }

  @Test
  void mapGroupsWithStateRunsOnlyInUpdateMode() {
    StreamFrame f = events().groupByKey("user").mapGroupsWithState((k, v, s) -> "x", Encoders.LONG(), Encoders.STRING());
    assertThatThrownBy(() -> start(f, "append")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("mapGroupsWithState[user]").hasMessageContaining("append output mode")
        .hasMessageContaining("outputMode(\"update\")");
    assertThatThrownBy(() -> start(f, "complete")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("complete output mode");
  }

  @Test
  void flatMapGroupsWithStateNeedsItsDeclaredModeAndEventTimeNeedsAWatermark() {
    StreamFrame update = events().groupByKey("user").flatMapGroupsWithState(new Count(), OutputMode.UPDATE,
        Encoders.LONG(), Encoders.STRING(), GroupStateTimeout.NoTimeout());
    assertThatThrownBy(() -> start(update, "append")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("declared with output mode update but the query runs in append output mode");
    StreamFrame eventTime = events().groupByKey("user").flatMapGroupsWithState(new Count(), OutputMode.APPEND,
        Encoders.LONG(), Encoders.STRING(), GroupStateTimeout.EventTimeTimeout());
    assertThatThrownBy(() -> start(eventTime, "append")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("EventTimeTimeout").hasMessageContaining("withWatermark");
    StreamFrame afterAggregation = events().groupBy("user").count().groupByKey("user").flatMapGroupsWithState(
        new Count(), OutputMode.UPDATE, Encoders.LONG(), Encoders.STRING(), GroupStateTimeout.NoTimeout());
    assertThatThrownBy(() -> start(afterAggregation, "update")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("after groupBy(user)").hasMessageContaining("before aggregating");
    StreamFrame unknownKey = events().groupByKey("nope").flatMapGroupsWithState(new Count(), OutputMode.UPDATE,
        Encoders.LONG(), Encoders.STRING(), GroupStateTimeout.NoTimeout());
    assertThatThrownBy(() -> start(unknownKey, "update")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("unknown key column 'nope'").hasMessageContaining("[user, ts]");
  }

  @Test
  void aChangedFunctionOrStateTypeIsRefusedWithTheDifference() {
    input.addData(Row.of("a", Instant.EPOCH));
    start(events().groupByKey("user").flatMapGroupsWithState(new Count(), OutputMode.UPDATE, Encoders.LONG(),
        Encoders.STRING(), GroupStateTimeout.NoTimeout()), "update").awaitTermination();
    assertThatThrownBy(() -> start(events().groupByKey("user").flatMapGroupsWithState(new OtherCount(),
        OutputMode.UPDATE, Encoders.LONG(), Encoders.STRING(),
        GroupStateTimeout.ProcessingTimeTimeout()), "update"))
        .isInstanceOf(CheckpointIncompatibleException.class)
        .hasMessageContaining("function: " + Count.class.getName() + " → " + OtherCount.class.getName())
        .hasMessageContaining("timeout: NO_TIMEOUT → PROCESSING_TIME_TIMEOUT");
    assertThat(dir.resolve("ck/offsets/1")).doesNotExist();
  }
}
