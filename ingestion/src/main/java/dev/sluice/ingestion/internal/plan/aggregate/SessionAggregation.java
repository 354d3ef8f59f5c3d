package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.ingestion.expr.internal.Intervals;
import dev.sluice.ingestion.internal.plan.StatefulTransform;
import dev.sluice.ingestion.state.StateEntry;
import dev.sluice.ingestion.state.StateSchema;
import dev.sluice.ingestion.state.StateStore;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bound {@link SessionAggregationSpec}: state key = group key row, state value = one array of sessions
 * {@code (start, end, buffers…)} sorted by start. A batch merges its rows into the sessions of the keys it
 * touches, then (append) emits and removes the sessions whose end the watermark reached.
 */
final class SessionAggregation implements StatefulTransform {
  static final String OPERATOR = "Session window aggregation (sessionWindowStateStoreSaveExec)";
  static final String OUTPUT_COLUMN = "session_window";

  private final SessionAggregationSpec spec;
  private final StructType input;
  private final GroupKeys keys;
  private final Aggregator[] aggregators;
  private final int[] offsets;
  private final int timeColumn;
  private final BoundExpression gap;
  private final Map<String, Long> gapCache = new HashMap<>();
  private final StateSchema stateSchema;
  private final StructType schema;
  private final int bufferWidth;
  private final boolean evicts;
  private long dropped;
  /** Smallest session end (µs) in the state committed as {@link #lowestVersion}; skips idle scans. */
  private long lowestEnd = Long.MIN_VALUE;
  private long lowestVersion = -1;

  private SessionAggregation(SessionAggregationSpec spec, StructType input, GroupKeys keys, Aggregator[] aggregators,
      int timeColumn, BoundExpression gap) {
    this.spec = spec;
    this.input = input;
    this.keys = keys;
    this.aggregators = aggregators;
    this.timeColumn = timeColumn;
    this.gap = gap;
    this.offsets = new int[aggregators.length];
    List<StructField> session = new ArrayList<>(GroupKeys.WINDOW_TYPE.fields());
    List<StructField> output = new ArrayList<>();
    output.add(StructField.of(OUTPUT_COLUMN, GroupKeys.WINDOW_TYPE, false));
    output.addAll(keys.schema().fields());
    int width = 0;
    for (int i = 0; i < aggregators.length; i++) {
      offsets[i] = width;
      for (StructField f : aggregators[i].bufferFields()) {
        session.add(new StructField("a" + i + "_" + f.name(), f.type(), true, f.metadata()));
        width++;
      }
      output.add(aggregators[i].resultField());
    }
    this.bufferWidth = width;
    this.stateSchema = new StateSchema(keys.schema(),
        StructType.of(StructField.of("sessions", new ArrayType(new StructType(session), false), false)));
    try {
      this.schema = new StructType(output);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(OPERATOR + ": output columns " + output.stream().map(StructField::name).toList()
          + " are not unique. Give the clashing aggregates an alias, or rename the key column first.", e);
    }
    this.evicts = spec.outputMode() != OutputMode.COMPLETE;
  }

  static SessionAggregation bind(SessionAggregationSpec spec, StructType input) {
    String mode = spec.outputMode().name().toLowerCase(Locale.ROOT);
    if (spec.outputMode() == OutputMode.UPDATE) {
      throw new IllegalArgumentException(OPERATOR + " " + spec.groupingSql() + ": output mode update is not"
          + " supported for session windows (as in Spark: merging sessions would change rows already emitted). Use"
          + " outputMode(\"append\") to emit each session once it closes, or outputMode(\"complete\").");
    }
    int time = input.indexOf(spec.session().column());
    if (time < 0) {
      throw new IllegalArgumentException(OPERATOR + ": unknown session_window column '" + spec.session().column()
          + "'. Known columns: " + String.join(", ", input.fieldNames()) + ".");
    }
    if (input.field(time).type() != PrimitiveType.TIMESTAMP) {
      throw new IllegalArgumentException(OPERATOR + ": " + spec.session().sql() + " needs a timestamp column, but '"
          + spec.session().column() + "' is " + input.field(time).type().typeName() + ". Cast it first.");
    }
    if (spec.outputMode() == OutputMode.APPEND && (spec.watermark() == null
        || input.indexOf(spec.watermark().column()) != time)) {
      throw new IllegalArgumentException(OPERATOR + " " + spec.groupingSql() + ": output mode " + mode + " needs a"
          + " watermark on the session column '" + spec.session().column() + "' (no session could ever close"
          + " otherwise). Call withWatermark(\"" + spec.session().column() + "\", delay) before groupBy, or use"
          + " outputMode(\"complete\").");
    }
    BoundExpression gap = null;
    if (spec.session().gapExpression() != null) {
      gap = Expressions.bind(spec.session().gapExpression(), input);
      if (gap.type() != PrimitiveType.STRING) {
        throw new IllegalArgumentException(OPERATOR + ": the session gap `" + spec.session().gapExpression() + "` is "
            + gap.type().typeName() + "; it must give a duration as text, e.g. CASE WHEN tier = 'gold' THEN"
            + " '30 minutes' ELSE '10 minutes' END");
      }
    }
    GroupKeys keys = GroupKeys.bind(new AggregationSpec(spec.keys(), null, spec.aggregates(), spec.outputMode(),
        spec.watermark()), input);
    Aggregator[] aggregators = new Aggregator[spec.aggregates().size()];
    for (int i = 0; i < aggregators.length; i++) {
      aggregators[i] = Aggregators.bind(spec.aggregates().get(i), input);
    }
    return new SessionAggregation(spec, input, keys, aggregators, time, gap);
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public String operatorName() {
    return "sessionWindowStateStoreSaveExec";
  }

  @Override
  public StateSchema stateSchema() {
    return stateSchema;
  }

  @Override
  public Map<String, String> fingerprint() {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("keys", String.join(", ", spec.keys()));
    lines.put("window", spec.session().sql());
    lines.put("aggregates", String.join(", ", spec.aggregates().stream().map(AggregateSpec::sql).toList()));
    lines.put("outputMode", spec.outputMode().name().toLowerCase(Locale.ROOT));
    return lines;
  }

  @Override
  public String describe() {
    return "SessionAggregate[" + spec.groupingSql() + "; " + spec.outputMode().name().toLowerCase(Locale.ROOT) + "]";
  }

  @Override
  public long lastDroppedByWatermark() {
    return dropped;
  }

  @Override
  public boolean needsNoDataBatch(long previousMs, long currentMs) {
    return evicts && currentMs > previousMs && (lowestVersion < 0 || lowestEnd <= micros(currentMs));
  }

  private static long micros(long ms) {
    return ms > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : ms * 1000;
  }

  @Override
  public Batch apply(Batch batch, BatchInfo info) {
    StateStore store = info.store(this);
    long watermark = micros(info.watermarkMs());
    EvalContext context = new EvalContext(info.batchTimestamp());
    dropped = 0;
    Map<Row, List<Session>> fresh = new LinkedHashMap<>();
    for (Row row : batch.rows()) {
      Instant t = (Instant) row.get(timeColumn);
      Long g = t == null ? null : gapMicros(row, context);
      if (g == null || g <= 0) {
        continue;
      }
      long start = TimeWindows.micros(t);
      if (evicts && start <= watermark) {
        dropped++;
        info.lateRows().add(operatorName(), input, row, info.watermarkMs());
        continue;
      }
      Object[] buffers = new Object[bufferWidth];
      for (int i = 0; i < aggregators.length; i++) {
        aggregators[i].init(buffers, offsets[i]);
        aggregators[i].update(buffers, offsets[i], row);
      }
      fresh.computeIfAbsent(Row.of(keys.values(row)), k -> new ArrayList<>())
          .add(new Session(start, saturatedAdd(start, g), buffers));
    }
    long lowestTouched = Long.MAX_VALUE;
    for (Map.Entry<Row, List<Session>> e : fresh.entrySet()) {
      List<Session> sessions = load(store.get(e.getKey()));
      sessions.addAll(e.getValue());
      List<Session> merged = merge(sessions);
      store.put(e.getKey(), encode(merged));
      lowestTouched = Math.min(lowestTouched, merged.get(0).end);
    }
    List<Row> out = new ArrayList<>();
    if (evicts) {
      evict(store, watermark, lowestTouched, out);
    } else {
      store.iterator().forEachRemaining(e -> load(e.value()).forEach(s -> out.add(output(e.key(), s))));
    }
    return new Batch(schema, out);
  }

  private Long gapMicros(Row row, EvalContext context) {
    if (gap == null) {
      return spec.session().gapMicros();
    }
    Object text = gap.eval(row, context);
    if (text == null) {
      return null;
    }
    Long micros = gapCache.computeIfAbsent((String) text, s -> {
      Long m = Intervals.micros(s);
      return m == null ? -1L : m;
    });
    if (gapCache.size() > 10_000) {
      gapCache.clear();
    }
    return micros;
  }

  /** Sessions sorted by start, overlapping or touching ones folded together (Spark merges at {@code start <= end}). */
  private List<Session> merge(List<Session> sessions) {
    sessions.sort(Comparator.comparingLong(s -> s.start));
    List<Session> out = new ArrayList<>();
    Session current = null;
    for (Session s : sessions) {
      if (current != null && s.start <= current.end) {
        current.end = Math.max(current.end, s.end);
        for (int i = 0; i < aggregators.length; i++) {
          aggregators[i].merge(current.buffers, offsets[i], s.buffers, offsets[i]);
        }
      } else {
        current = s;
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Emits and removes the sessions whose end is at or before the watermark. Scans the store only when one may
   * be: the lowest session end is kept for the version this operator committed last (a re-run or restart rescans).
   */
  private void evict(StateStore store, long watermark, long lowestTouched, List<Row> emit) {
    boolean known = lowestVersion >= 0 && lowestVersion == store.version() - 1;
    if (known && Math.min(lowestEnd, lowestTouched) > watermark) {
      lowestEnd = Math.min(lowestEnd, lowestTouched);
      lowestVersion = store.version();
      return;
    }
    long lowest = Long.MAX_VALUE;
    List<StateEntry> changed = new ArrayList<>();
    for (Iterator<StateEntry> it = store.iterator(); it.hasNext(); ) {
      StateEntry e = it.next();
      List<Session> sessions = load(e.value());
      List<Session> open = new ArrayList<>();
      for (Session s : sessions) {
        if (s.end <= watermark) {
          emit.add(output(e.key(), s));
        } else {
          open.add(s);
          lowest = Math.min(lowest, s.end);
        }
      }
      if (open.size() != sessions.size()) {
        changed.add(new StateEntry(e.key(), open.isEmpty() ? null : encode(open)));
      }
    }
    for (StateEntry e : changed) {
      if (e.value() == null) {
        store.remove(e.key());
      } else {
        store.put(e.key(), e.value());
      }
    }
    lowestEnd = lowest;
    lowestVersion = store.version();
  }

  private List<Session> load(Row stored) {
    List<Session> out = new ArrayList<>();
    if (stored == null) {
      return out;
    }
    for (Object o : (List<?>) stored.get(0)) {
      Row r = (Row) o;
      Object[] buffers = new Object[bufferWidth];
      for (int i = 0; i < bufferWidth; i++) {
        buffers[i] = r.get(2 + i);
      }
      for (int i = 0; i < aggregators.length; i++) {
        aggregators[i].detach(buffers, offsets[i]);
      }
      out.add(new Session(TimeWindows.micros((Instant) r.get(0)), TimeWindows.micros((Instant) r.get(1)), buffers));
    }
    return out;
  }

  private Row encode(List<Session> sessions) {
    List<Row> rows = new ArrayList<>(sessions.size());
    for (Session s : sessions) {
      Object[] values = new Object[2 + bufferWidth];
      values[0] = TimeWindows.instant(s.start);
      values[1] = TimeWindows.instant(s.end);
      System.arraycopy(s.buffers, 0, values, 2, bufferWidth);
      rows.add(Row.of(values));
    }
    return Row.of(rows);
  }

  private Row output(Row key, Session s) {
    Object[] values = new Object[1 + keys.width() + aggregators.length];
    values[0] = GroupKeys.window(s.start, s.end);
    for (int i = 0; i < keys.width(); i++) {
      values[1 + i] = key.get(i);
    }
    for (int i = 0; i < aggregators.length; i++) {
      values[1 + keys.width() + i] = aggregators[i].result(s.buffers, offsets[i]);
    }
    return Row.of(values);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  /** One session while a batch works on it: {@code [start, end)} in µs and its aggregate buffers. */
  private static final class Session {
    final long start;
    long end;
    final Object[] buffers;

    Session(long start, long end, Object[] buffers) {
      this.start = start;
      this.end = end;
      this.buffers = buffers;
    }
  }
}
