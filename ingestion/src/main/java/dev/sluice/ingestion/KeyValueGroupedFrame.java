package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.internal.plan.arbitrary.ArbitraryStateStep;
import dev.sluice.ingestion.internal.plan.arbitrary.GroupFunction;
import dev.sluice.ingestion.internal.plan.arbitrary.GroupsWithStateSpec;
import dev.sluice.ingestion.internal.plan.arbitrary.TransformWithStateSpec;
import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.GroupStateTimeout;
import dev.sluice.ingestion.stateful.MapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.StatefulProcessor;
import dev.sluice.ingestion.stateful.TimeMode;
import dev.sluice.table.data.Row;
import java.util.List;
import java.util.Map;

/**
 * A stream grouped by key columns for arbitrary stateful processing (Spark's {@code KeyValueGroupedDataset}): the
 * key given to the user's code is a {@link Row} of the key columns, the values are the input rows. State is kept
 * per key in the query's checkpoint; see the README section "Arbitrary stateful processing".
 */
public final class KeyValueGroupedFrame {
  private final StreamFrame frame;
  private final List<String> keys;

  KeyValueGroupedFrame(StreamFrame frame, List<String> keys) {
    this.frame = frame;
    this.keys = List.copyOf(keys);
  }

  private String watermarkColumn() {
    StreamFrame.WatermarkStep w = frame.watermark();
    return w == null ? null : w.column();
  }

  /**
   * One output per key with data or a timeout; the query must run in update output mode (Spark's rule).
   *
   * @param stateEncoder the state type, e.g. {@code Encoders.record(Session.class)}
   */
  public <S, O> StreamFrame mapGroupsWithState(MapGroupsWithStateFunction<S, O> function, Encoder<S> stateEncoder,
      Encoder<O> outputEncoder, GroupStateTimeout timeout) {
    return withGroups(new GroupsWithStateSpec<>(true, keys, GroupFunction.of(function), OutputMode.UPDATE,
        stateEncoder, outputEncoder, timeout, watermarkColumn()));
  }

  /** {@link #mapGroupsWithState} without timeouts. */
  public <S, O> StreamFrame mapGroupsWithState(MapGroupsWithStateFunction<S, O> function, Encoder<S> stateEncoder,
      Encoder<O> outputEncoder) {
    return mapGroupsWithState(function, stateEncoder, outputEncoder, GroupStateTimeout.NO_TIMEOUT);
  }

  /**
   * Any number of outputs per key with data or a timeout.
   *
   * @param outputMode update or append; must equal the query's output mode (Spark's rule)
   */
  public <S, O> StreamFrame flatMapGroupsWithState(FlatMapGroupsWithStateFunction<S, O> function,
      OutputMode outputMode, Encoder<S> stateEncoder, Encoder<O> outputEncoder, GroupStateTimeout timeout) {
    return withGroups(new GroupsWithStateSpec<>(false, keys, GroupFunction.of(function), outputMode, stateEncoder,
        outputEncoder, timeout, watermarkColumn()));
  }

  private StreamFrame withGroups(GroupsWithStateSpec<?, ?> spec) {
    boolean eventTime = spec.timeout() == GroupStateTimeout.EVENT_TIME_TIMEOUT;
    return frame.with(new Step(spec.map() ? "mapGroupsWithState" : "flatMapGroupsWithState",
        spec.map() ? null : spec.declaredMode(), eventTime, spec.describe(), spec, spec.fingerprintLines()));
  }

  /**
   * Spark 4's {@code transformWithState}: the processor's state variables, timers and TTLs per key.
   *
   * @param outputMode update or append; must equal the query's output mode
   */
  public <O> StreamFrame transformWithState(StatefulProcessor<Row, Row, O> processor, TimeMode timeMode,
      OutputMode outputMode, Encoder<O> outputEncoder) {
    TransformWithStateSpec<O> spec = new TransformWithStateSpec<>(keys, processor, timeMode, outputMode,
        outputEncoder, watermarkColumn());
    return frame.with(new Step("transformWithState", outputMode, timeMode == TimeMode.EVENT_TIME, spec.describe(),
        spec, spec.fingerprintLines()));
  }

  /** The plan step of an arbitrary stateful operator. */
  private record Step(String operator, OutputMode declaredMode, boolean usesEventTime, String describe,
      TransformSpec spec, Map<String, String> fingerprint) implements ArbitraryStateStep {
    @Override
    public TransformSpec spec(OutputMode mode) {
      return spec;
    }
  }
}
