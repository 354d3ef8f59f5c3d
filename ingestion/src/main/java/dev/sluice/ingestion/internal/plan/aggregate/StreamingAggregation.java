package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.ingestion.state.StateTimeIndex;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bound {@link AggregationSpec}: state key = group key row, state value = the aggregates' buffers.
 * A batch loads each group it touches from the store once, updates it in memory, writes it back, then
 * emits by output mode and evicts final groups (see {@link AggregationSpec} for the rules).
 */
final class StreamingAggregation implements StatefulTransform {
  private final AggregationSpec spec;
  private final StructType input;
  private final GroupKeys keys;
  private final Aggregator[] aggregators;
  private final int[] offsets;
  private final StateSchema stateSchema;
  private final StructType schema;
  /** Whether groups become final when the watermark passes their event time (never in complete mode). */
  private final boolean evicts;
  private final long[] starts;
  /** Groups are final by the event time of their key (the window's end or the event-time column). */
  private final StateTimeIndex timeIndex;

  private long dropped;
  /** Smallest event time (µs) of a group in the state committed as {@link #lowestVersion}; skips idle scans. */
  private long lowestEventTime = Long.MIN_VALUE;
  private long lowestVersion = -1;

  private StreamingAggregation(AggregationSpec spec, StructType input, GroupKeys keys, Aggregator[] aggregators) {
    this.spec = spec;
    this.input = input;
    this.keys = keys;
    this.aggregators = aggregators;
    this.offsets = new int[aggregators.length];
    List<StructField> buffers = new ArrayList<>();
    List<StructField> output = new ArrayList<>(keys.schema().fields());
    for (int i = 0; i < aggregators.length; i++) {
      offsets[i] = buffers.size();
      for (StructField f : aggregators[i].bufferFields()) {
        buffers.add(new StructField("a" + i + "_" + f.name(), f.type(), f.nullable(), f.metadata()));
      }
      output.add(aggregators[i].resultField());
    }
    this.stateSchema = new StateSchema(keys.schema(), new StructType(buffers));
    this.schema = outputSchema(output);
    this.evicts = spec.watermark() != null && keys.hasEventTimeKey() && spec.outputMode() != OutputMode.COMPLETE;
    this.starts = new long[keys.windows() == null ? 0 : keys.windows().maxOverlapping()];
    this.timeIndex = StateTimeIndex.ofKey(keys::eventTimeMicros);
  }

  @Override
  public Optional<StateTimeIndex> timeIndex() {
    return evicts ? Optional.of(timeIndex) : Optional.empty();
  }

  static StreamingAggregation bind(AggregationSpec spec, StructType input) {
    GroupKeys keys = GroupKeys.bind(spec, input);
    Aggregator[] aggregators = new Aggregator[spec.aggregates().size()];
    for (int i = 0; i < aggregators.length; i++) {
      aggregators[i] = Aggregators.bind(spec.aggregates().get(i), input);
    }
    if (spec.outputMode() == OutputMode.APPEND && (spec.watermark() == null || !keys.hasEventTimeKey())) {
      throw AggregationErrors.appendWithoutEventTimeKey(spec);
    }
    return new StreamingAggregation(spec, input, keys, aggregators);
  }

  private static StructType outputSchema(List<StructField> fields) {
    try {
      return new StructType(fields);
    } catch (IllegalArgumentException e) {
      throw AggregationErrors.nameClash(fields.stream().map(StructField::name).toList(), e);
    }
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public String operatorName() {
    return "stateStoreSave";
  }

  @Override
  public StateSchema stateSchema() {
    return stateSchema;
  }

  /**
   * The watermark delay is left out: as in Spark, a restart may change it (the state stays valid;
   * groups just become final sooner or later). Aliases are left out too: they don't shape the state.
   */
  @Override
  public Map<String, String> fingerprint() {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("keys", String.join(", ", spec.keys()));
    lines.put("window", spec.window() == null ? "none" : spec.window().sql());
    lines.put("aggregates", String.join(", ", spec.aggregates().stream().map(AggregateSpec::sql).toList()));
    lines.put("outputMode", spec.outputMode().name().toLowerCase(Locale.ROOT));
    lines.put("eventTimeColumn", spec.watermark() == null ? "none" : spec.watermark().column());
    return lines;
  }

  @Override
  public String describe() {
    return "Aggregate[" + spec.groupingSql() + "; " + spec.aggregatesSql() + "; "
        + spec.outputMode().name().toLowerCase(Locale.ROOT) + "]";
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }

  /** True when the watermark moved past the event time of some group in state (or that is unknown). */
  @Override
  public boolean needsNoDataBatch(long previousMs, long currentMs) {
    if (!evicts || currentMs <= previousMs) {
      return false;
    }
    return lowestVersion < 0 || lowestEventTime <= micros(currentMs);
  }

  private static long micros(long ms) {
    return ms > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : ms * 1000;
  }

  @Override
  public Batch apply(Batch batch, BatchInfo info) {
    StateStore store = info.store(this);
    long watermarkMicros = micros(info.watermarkMs());
    dropped = 0;
    Map<Row, Object[]> touched = new LinkedHashMap<>();
    for (Row row : batch.rows()) {
      if (!accumulate(row, touched, store, watermarkMicros)) {
        dropped++;
        info.lateRows().add(operatorName(), input, row, info.watermarkMs());
      }
    }
    long lowestTouched = Long.MAX_VALUE;
    for (Map.Entry<Row, Object[]> e : touched.entrySet()) {
      store.put(e.getKey(), Row.of(e.getValue()));
      if (evicts) {
        lowestTouched = Math.min(lowestTouched, keys.eventTimeMicros(e.getKey()));
      }
    }
    List<Row> out = new ArrayList<>();
    switch (spec.outputMode()) {
      case COMPLETE -> store.iterator().forEachRemaining(e -> out.add(output(e.key(), e.value().toArray())));
      case UPDATE -> {
        touched.forEach((k, buffers) -> out.add(output(k, buffers)));
        evict(store, watermarkMicros, lowestTouched, null);
      }
      case APPEND -> evict(store, watermarkMicros, lowestTouched, out);
      default -> throw new AssertionError(spec.outputMode());
    }
    return new Batch(schema, out);
  }

  /** Adds a row to its groups; false when the row is late (every group it belongs to is final). */
  private boolean accumulate(Row row, Map<Row, Object[]> touched, StateStore store, long watermarkMicros) {
    TimeWindows windows = keys.windows();
    if (windows == null) {
      Row key = Row.of(keys.values(row));
      if (evicts && keys.eventTimeMicros(key) <= watermarkMicros) {
        return false;
      }
      update(key, row, touched, store);
      return true;
    }
    Instant time = keys.eventTime(row);
    if (time == null) {
      // Spark's window() drops rows without event time before grouping; they are not late.
      return true;
    }
    int n = windows.starts(TimeWindows.micros(time), starts);
    boolean kept = false;
    for (int i = 0; i < n; i++) {
      Object[] key = keys.values(row);
      key[0] = GroupKeys.window(starts[i], starts[i] + windows.size());
      Row k = Row.of(key);
      if (evicts && keys.eventTimeMicros(k) <= watermarkMicros) {
        continue;
      }
      update(k, row, touched, store);
      kept = true;
    }
    return kept;
  }

  private void update(Row key, Row row, Map<Row, Object[]> touched, StateStore store) {
    Object[] buffers = touched.get(key);
    if (buffers == null) {
      buffers = load(store.get(key));
      touched.put(key, buffers);
    }
    for (int i = 0; i < aggregators.length; i++) {
      aggregators[i].update(buffers, offsets[i], row);
    }
  }

  private Object[] load(Row stored) {
    Object[] buffers = stored == null ? new Object[stateSchema.valueSchema().size()] : stored.toArray();
    for (int i = 0; i < aggregators.length; i++) {
      if (stored == null) {
        aggregators[i].init(buffers, offsets[i]);
      } else {
        aggregators[i].detach(buffers, offsets[i]);
      }
    }
    return buffers;
  }

  private Row output(Row key, Object[] buffers) {
    Object[] values = new Object[keys.width() + aggregators.length];
    for (int i = 0; i < keys.width(); i++) {
      values[i] = key.get(i);
    }
    for (int i = 0; i < aggregators.length; i++) {
      values[keys.width() + i] = aggregators[i].result(buffers, offsets[i]);
    }
    return Row.of(values);
  }

  /**
   * Removes the groups whose event time is at or before the watermark, adding them to {@code emit}
   * when given. Scans the store only when a group may be final: the lowest event time in state is kept
   * for the version this operator committed last, and is trusted only for the next version (a re-run
   * batch or a restart rescans).
   */
  private void evict(StateStore store, long watermarkMicros, long lowestTouched, List<Row> emit) {
    if (!evicts) {
      return;
    }
    boolean known = lowestVersion >= 0 && lowestVersion == store.version() - 1;
    if (known && Math.min(lowestEventTime, lowestTouched) > watermarkMicros) {
      lowestEventTime = Math.min(lowestEventTime, lowestTouched);
      lowestVersion = store.version();
      return;
    }
    long lowest = store.removeUpTo(timeIndex, watermarkMicros,
        emit == null ? null : (key, value) -> emit.add(output(key, value.toArray()))).lowestKept();
    lowestEventTime = lowest;
    lowestVersion = store.version();
  }
}
