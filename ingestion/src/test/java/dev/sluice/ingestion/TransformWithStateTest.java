package dev.sluice.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ingestion.source.MemoryStream;
import dev.sluice.ingestion.stateful.Encoders;
import dev.sluice.ingestion.stateful.ExpiredTimerInfo;
import dev.sluice.ingestion.stateful.ListState;
import dev.sluice.ingestion.stateful.MapState;
import dev.sluice.ingestion.stateful.StatefulProcessor;
import dev.sluice.ingestion.stateful.TTLConfig;
import dev.sluice.ingestion.stateful.TimeMode;
import dev.sluice.ingestion.stateful.TimerValues;
import dev.sluice.ingestion.stateful.ValueState;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * transformWithState on a manual clock, every availableNow run a restart over the same checkpoint: value, list
 * and map state per key; several processing-time timers per key, deleted and listed, fired in no-data batches
 * exactly when the clock is past them and after restarts; TTL expiry and eviction; value schema evolution
 * (field added, removed, widened) and the refusal of an incompatible change; a changed processor refused.
 */
class TransformWithStateTest {
  static final StructType EVENTS = StructType.of(StructField.of("user", PrimitiveType.STRING),
      StructField.of("value", PrimitiveType.STRING));

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock(1_000);
  private final SluiceSession session = SluiceSession.builder().clock(clock).build();
  private final String streamName = "tws-" + System.nanoTime();
  private final MemoryStream input = MemoryStream.named(streamName, EVENTS);
  private final BatchOutputs outputs = new BatchOutputs();

  @AfterEach
  void close() {
    MemoryStream.remove(streamName);
    session.close();
  }

  /** Counts values per key in three kinds of state; two reminders per key, the second clears the key. */
  public static final class CountAndRemind extends StatefulProcessor<Row, Row, String> {
    private ValueState<Long> count;
    private ListState<String> seen;
    private MapState<String, Long> perValue;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
      count = getHandle().getValueState("count", Encoders.LONG());
      seen = getHandle().getListState("seen", Encoders.STRING());
      perValue = getHandle().getMapState("perValue", Encoders.STRING(), Encoders.LONG());
    }

    @Override
    public Iterator<String> handleInputRows(Row key, Iterator<Row> rows, TimerValues timers) {
      long n = count.exists() ? count.get() : 0;
      if (n == 0) {
        getHandle().registerTimer(timers.getCurrentProcessingTimeInMs() + 10_000);
        getHandle().registerTimer(timers.getCurrentProcessingTimeInMs() + 20_000);
      }
      while (rows.hasNext()) {
        String v = (String) rows.next().get(1);
        if (v.equals("cancel")) {
          List<Long> pending = new ArrayList<>();
          getHandle().listTimers().forEachRemaining(pending::add);
          getHandle().deleteTimer(pending.get(pending.size() - 1));
        }
        n++;
        seen.appendValue(v);
        Long c = perValue.getValue(v);
        perValue.updateValue(v, c == null ? 1 : c + 1);
      }
      count.update(n);
      return List.of("data " + key.get(0) + " count=" + n).iterator();
    }

    @Override
    public Iterator<String> handleExpiredTimer(Row key, TimerValues timers, ExpiredTimerInfo timer) {
      List<Long> left = new ArrayList<>();
      getHandle().listTimers().forEachRemaining(left::add);
      List<String> values = new ArrayList<>();
      seen.get().forEachRemaining(values::add);
      TreeMap<String, Long> counts = new TreeMap<>();
      perValue.iterator().forEachRemaining(e -> counts.put(e.getKey(), e.getValue()));
      String out = "timer " + key.get(0) + " at " + timer.getExpiryTimeInMs() + " now "
          + timers.getCurrentProcessingTimeInMs() + " count=" + count.get() + " seen=" + values + " per=" + counts
          + " left=" + left;
      if (left.isEmpty()) {
        count.clear();
        seen.clear();
        perValue.clear();
      }
      return List.of(out).iterator();
    }
  }

  private StreamingQuery run(StatefulProcessor<Row, Row, String> processor, TimeMode mode) {
    StreamingQuery q = session.readStream().format("memory").option("name", streamName).load().groupByKey("user")
        .transformWithState(processor, mode, OutputMode.UPDATE, Encoders.STRING()).writeStream().queryName("tws")
        .outputMode("update").trigger(Trigger.availableNow()).option("checkpointLocation", dir.resolve("ck").toString())
        .foreachBatch(outputs).start();
    q.awaitTermination();
    return q;
  }

  private void add(String user, String value) {
    input.addData(Row.of(user, value));
  }

  private static long stateRows(StreamingQuery q) {
    return q.lastProgress().orElseThrow().stateOperators().get(0).numRowsTotal();
  }

  @Test
  void stateAndSeveralTimersPerKeySurviveRestartsAndFireWhenTheClockIsPastThem() {
    add("a", "x");
    add("a", "y");
    add("b", "x");
    run(new CountAndRemind(), TimeMode.ProcessingTime()); // timers of a and b at 11 000 and 21 000
    assertThat(outputs.batch(0)).containsExactlyInAnyOrder(Row.of("data a count=2"), Row.of("data b count=1"));

    clock.set(5_000);
    add("b", "cancel"); // deletes b's timer at 21 000
    run(new CountAndRemind(), TimeMode.ProcessingTime());
    assertThat(outputs.batch(1)).containsExactly(Row.of("data b count=2"));

    clock.set(11_000);
    run(new CountAndRemind(), TimeMode.ProcessingTime());
    assertThat(outputs.batchCount()).as("a timer fires only once the time is strictly past it").isEqualTo(2);

    clock.set(11_001);
    run(new CountAndRemind(), TimeMode.ProcessingTime());
    assertThat(outputs.batch(2)).containsExactlyInAnyOrder(
        Row.of("timer a at 11000 now 11001 count=2 seen=[x, y] per={x=1, y=1} left=[21000]"),
        Row.of("timer b at 11000 now 11001 count=2 seen=[x, cancel] per={cancel=1, x=1} left=[]"));

    clock.set(21_001);
    StreamingQuery last = run(new CountAndRemind(), TimeMode.ProcessingTime());
    assertThat(outputs.batch(3)).containsExactly(
        Row.of("timer a at 21000 now 21001 count=2 seen=[x, y] per={x=1, y=1} left=[]"));
    assertThat(stateRows(last)).as("only the 3 recorded value schemas are left").isEqualTo(3);
  }

  /** Remembers each key's last value for 5 seconds of processing time. */
  public static final class LastValue extends StatefulProcessor<Row, Row, String> {
    private ValueState<String> last;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
      last = getHandle().getValueState("last", Encoders.STRING(), TTLConfig.of(Duration.ofSeconds(5)));
    }

    @Override
    public Iterator<String> handleInputRows(Row key, Iterator<Row> rows, TimerValues timers) {
      String before = last.getOption().orElse("none");
      while (rows.hasNext()) {
        last.update((String) rows.next().get(1));
      }
      return List.of(key.get(0) + " had " + before).iterator();
    }
  }

  @Test
  void valuesExpireAfterTheirTtlAndAreEvictedWithoutData() {
    add("a", "1");
    run(new LastValue(), TimeMode.None());
    clock.set(5_999); // written at 1 000 with a 5 s TTL: still there until 6 000; rewriting restarts the TTL
    add("a", "2");
    run(new LastValue(), TimeMode.None());
    clock.set(10_998);
    add("b", "1");
    StreamingQuery q = run(new LastValue(), TimeMode.None());
    assertThat(stateRows(q)).isEqualTo(3); // schema, a, b
    clock.set(10_999); // a's value expires now: a no-data batch evicts it
    q = run(new LastValue(), TimeMode.None());
    assertThat(outputs.batchCount()).isEqualTo(4);
    assertThat(stateRows(q)).isEqualTo(2);
    add("a", "3");
    run(new LastValue(), TimeMode.None());
    assertThat(outputs.all()).containsExactly(Row.of("a had none"), Row.of("a had 1"), Row.of("b had none"),
        Row.of("a had none"));
  }

  /** A counter whose value schema is given, to run the same processor with an evolving schema. */
  public static final class SchemaCounter extends StatefulProcessor<Row, Row, String> {
    private final StructType schema;
    private ValueState<Row> state;

    SchemaCounter(StructType schema) {
      this.schema = schema;
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
      state = getHandle().getValueState("counter", Encoders.row(schema));
    }

    @Override
    public Iterator<String> handleInputRows(Row key, Iterator<Row> rows, TimerValues timers) {
      Row old = state.get();
      int at = schema.indexOf("count");
      long n = old == null ? 0 : ((Number) old.get(at)).longValue();
      while (rows.hasNext()) {
        rows.next();
        n++;
      }
      Object[] values = new Object[schema.size()];
      values[at] = schema.field(at).type() == PrimitiveType.INTEGER ? (Object) (int) n : (Object) n;
      String shown = old == null ? "none" : old.toString();
      state.update(Row.of(values));
      return List.of(key.get(0) + " count=" + n + " old=" + shown).iterator();
    }
  }

  @Test
  void valueSchemasEvolveAcrossRestartsAndAnIncompatibleChangeIsRefused() {
    StructType v1 = StructType.of(StructField.of("count", PrimitiveType.INTEGER),
        StructField.of("note", PrimitiveType.STRING));
    StructType v2 = StructType.of(StructField.of("extra", PrimitiveType.STRING),
        StructField.of("count", PrimitiveType.LONG));
    add("a", "x");
    run(new SchemaCounter(v1), TimeMode.None());
    add("a", "x");
    run(new SchemaCounter(v2), TimeMode.None()); // note removed, extra added, count widened int → long
    add("a", "x");
    run(new SchemaCounter(v2), TimeMode.None());
    assertThat(outputs.all()).containsExactly(Row.of("a count=1 old=none"), Row.of("a count=2 old=[null, 1]"),
        Row.of("a count=3 old=[null, 2]"));

    add("a", "x");
    StructType v3 = StructType.of(StructField.of("count", PrimitiveType.STRING));
    assertThatThrownBy(() -> run(new SchemaCounter(v3), TimeMode.None()))
        .isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("state variable 'counter'")
        .hasMessageContaining("counter.count changed type from long to string");
    add("a", "x");
    run(new SchemaCounter(v2), TimeMode.None()); // nothing of the refused run was committed: its batch re-runs
    assertThat(outputs.batch(3)).containsExactly(Row.of("a count=4 old=[null, 3]"));
    assertThat(outputs.batch(4)).containsExactly(Row.of("a count=5 old=[null, 4]"));
  }

  @Test
  void aChangedProcessorIsRefusedBeforeAnythingRuns() {
    add("a", "1");
    run(new LastValue(), TimeMode.None());
    assertThatThrownBy(() -> run(new CountAndRemind(), TimeMode.ProcessingTime()))
        .isInstanceOf(CheckpointIncompatibleException.class)
        .hasMessageContaining("processor: " + LastValue.class.getName() + " → " + CountAndRemind.class.getName())
        .hasMessageContaining("stateVariables");
  }
}
