package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.Batch;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.EvalContext;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.ingestion.expr.internal.JoinConditions;
import dev.sluice.ingestion.internal.plan.EventTimeWatermark;
import dev.sluice.ingestion.internal.plan.InputPlan;
import dev.sluice.ingestion.internal.plan.MultiInputTransform;
import dev.sluice.ingestion.internal.plan.Transform;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spark's symmetric hash join of two streams. Each batch: left input rows are joined with the right side's buffered
 * rows and buffered; then right input rows are joined with the left side's buffered rows (old and new) and buffered,
 * so every pair meets once. Input older than the watermark (at or before it) is dropped as late on a side with a
 * watermark. A buffered row is evicted once no row the other side may still send can match it: with the time bound
 * {@code min <= right.t - left.t <= max} between the sides' event-time columns, a left row at {@code T} when
 * {@code T + max <= watermark}, a right row at {@code R} when {@code R - min <= watermark}; an outer side's rows that
 * never matched are emitted with nulls then.
 */
final class StreamStreamJoin implements MultiInputTransform {
  static final String OPERATOR = "Stream-stream join (symmetricHashJoin)";

  private final StreamJoinSpec spec;
  private final InputPlan left;
  private final InputPlan right;
  private final int[] leftKeys;
  private final int[] rightKeys;
  private final BoundExpression condition;
  private final int[] rightInCondition;
  private final boolean aliases;
  private final int leftTime;
  private final int rightTime;
  private final Long maxDiff;
  private final Long minDiff;
  private final StructType schema;
  private final int[] leftOut;
  private final int[] rightOut;
  private final JoinSideState leftState;
  private final JoinSideState rightState;
  private long lastEvictionWatermark = Long.MIN_VALUE;

  private StreamStreamJoin(StreamJoinSpec spec, InputPlan left, InputPlan right, Layout layout, BoundExpression condition,
      int leftTime, int rightTime, Long minDiff, Long maxDiff, Map<String, String> fingerprint) {
    this.spec = spec;
    this.left = left;
    this.right = right;
    this.leftKeys = layout.leftKeys;
    this.rightKeys = layout.rightKeys;
    this.condition = condition;
    this.rightInCondition = layout.rightInCondition;
    this.aliases = layout.aliases;
    this.leftTime = leftTime;
    this.rightTime = rightTime;
    this.minDiff = minDiff;
    this.maxDiff = maxDiff;
    this.schema = layout.output;
    this.leftOut = layout.leftOut;
    this.rightOut = layout.rightOut;
    StructType keySchema = keySchema(left.schema(), leftKeys);
    this.leftState = new JoinSideState("left", keySchema, left.schema(), fingerprint);
    this.rightState = new JoinSideState("right", keySchema, right.schema(), fingerprint);
  }

  static StreamStreamJoin bind(StreamJoinSpec spec, List<StructType> sources) {
    InputPlan left = InputPlan.bind(sources, 0, spec.leftSources(), spec.leftSteps());
    InputPlan right = InputPlan.bind(sources, spec.leftSources(), spec.rightSources(), spec.rightSteps());
    StructType l = left.schema();
    StructType r = right.schema();
    Layout layout = Layout.of(spec, l, r);
    BoundExpression condition = spec.condition() == null ? null
        : Expressions.bindPredicate(spec.condition(), layout.conditionSchema);
    int leftTime = EventTimeWatermark.declared(l).map(e -> l.indexOf(e.getKey())).orElse(-1);
    int rightTime = EventTimeWatermark.declared(r).map(e -> r.indexOf(e.getKey())).orElse(-1);
    Long min = null;
    Long max = null;
    if (spec.condition() != null) {
      JoinConditions.Analysis a = JoinConditions.analyze(spec.condition(), parts -> layout.resolve(parts, l, r));
      for (JoinConditions.TimeBound b : a.bounds()) {
        if (b.leftOrdinal() == leftTime && b.rightOrdinal() == rightTime) {
          if (b.minMicros() != null) {
            min = min == null ? b.minMicros() : Long.valueOf(Math.max(min, b.minMicros()));
          }
          if (b.maxMicros() != null) {
            max = max == null ? b.maxMicros() : Long.valueOf(Math.min(max, b.maxMicros()));
          }
        }
      }
    }
    Long maxDiff = rightTime >= 0 ? max : null;
    Long minDiff = leftTime >= 0 ? min : null;
    checkBounded(spec, l, r, leftTime, rightTime, minDiff, maxDiff);
    Map<String, String> fingerprint = new LinkedHashMap<>();
    fingerprint.put("type", spec.type().sparkName());
    fingerprint.put("keys", layout.keyNames);
    return new StreamStreamJoin(spec, left, right, layout, condition, leftTime, rightTime, minDiff, maxDiff, fingerprint);
  }

  /** Spark's rules: an outer side's rows must be evictable, else they could never be null-joined. */
  private static void checkBounded(StreamJoinSpec spec, StructType l, StructType r, int leftTime, int rightTime,
      Long minDiff, Long maxDiff) {
    StreamJoinType t = spec.type();
    boolean leftNeeded = t.keepsLeft() || t == StreamJoinType.LEFT_SEMI;
    boolean rightNeeded = t.keepsRight() || t == StreamJoinType.LEFT_SEMI;
    String mode = spec.outputMode().name().toLowerCase(Locale.ROOT);
    if (t != StreamJoinType.INNER && (leftTime < 0 || rightTime < 0)) {
      throw new IllegalArgumentException(OPERATOR + ": a " + t.sparkName() + " join (output mode " + mode + ") needs a"
          + " watermark on both sides, but the " + (leftTime < 0 ? "left" : "right") + " side has none: an unmatched"
          + " row could never be emitted. Call withWatermark(eventTimeColumn, delay) on both streams before the join,"
          + " and bound the time between them in the condition, e.g. r.t BETWEEN l.t AND l.t + INTERVAL 1 HOUR.");
    }
    if (leftNeeded && maxDiff == null || rightNeeded && minDiff == null) {
      String which = leftNeeded && maxDiff == null ? "an upper bound on " + name(r, rightTime) + " - "
          + name(l, leftTime) : "a lower bound on " + name(r, rightTime) + " - " + name(l, leftTime);
      throw new IllegalArgumentException(OPERATOR + ": a " + t.sparkName() + " join (output mode " + mode + ") needs a"
          + " time-range condition between the sides' event-time columns (" + which + "), so that the watermark can"
          + " tell when a row can no longer match. Add it to the condition, e.g. " + name(r, rightTime)
          + " BETWEEN " + name(l, leftTime) + " AND " + name(l, leftTime) + " + INTERVAL 1 HOUR.");
    }
  }

  private static String name(StructType s, int ordinal) {
    return ordinal < 0 ? "<event time>" : s.field(ordinal).name();
  }

  private static StructType keySchema(StructType l, int[] keys) {
    List<StructField> fields = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      fields.add(new StructField("k" + i, l.field(keys[i]).type(), true, Map.of()));
    }
    return new StructType(fields);
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public List<Transform> nested() {
    List<Transform> out = new ArrayList<>(left.flatten());
    out.addAll(right.flatten());
    out.add(leftState);
    out.add(rightState);
    return out;
  }

  @Override
  public String describe() {
    return spec.describe();
  }

  @Override
  public Batch applyInputs(List<Batch> perSource, BatchInfo info) {
    Batch l = left.run(perSource, info);
    Batch r = right.run(perSource, info);
    long watermark = info.watermarkMs() > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : info.watermarkMs() * 1000;
    EvalContext context = new EvalContext(info.batchTimestamp());
    leftState.begin(info.store(leftState));
    rightState.begin(info.store(rightState));
    List<Row> out = new ArrayList<>();
    try {
      for (Row row : l.rows()) {
        if (late(row, leftTime, watermark)) {
          leftState.dropped++;
          info.lateRows().add(leftState.operatorName(), l.schema(), row, info.watermarkMs());
        } else {
          leftRow(row, watermark, context, out);
        }
      }
      for (Row row : r.rows()) {
        if (late(row, rightTime, watermark)) {
          rightState.dropped++;
          info.lateRows().add(rightState.operatorName(), r.schema(), row, info.watermarkMs());
        } else {
          rightRow(row, watermark, context, out);
        }
      }
      leftState.flush();
      rightState.flush();
      if (watermark > lastEvictionWatermark) {
        evict(watermark, out);
        lastEvictionWatermark = watermark;
      }
      leftState.completed();
      rightState.completed();
    } finally {
      leftState.end();
      rightState.end();
    }
    return new Batch(schema, out);
  }

  private static boolean late(Row row, int time, long watermark) {
    if (time < 0) {
      return false;
    }
    Instant t = (Instant) row.get(time);
    return t != null && micros(t) <= watermark;
  }

  private void leftRow(Row row, long watermark, EvalContext context, List<Row> out) {
    Row key = key(row, leftKeys);
    boolean matched = false;
    if (key != null) {
      for (Object[] other : rightState.rows(key)) {
        if (matches(row, Row.of(other), context)) {
          matched = true;
          if (spec.type() == StreamJoinType.LEFT_SEMI) {
            break;
          }
          out.add(joined(row, Row.of(other)));
          if (!(Boolean) other[rightState.width()]) {
            other[rightState.width()] = true;
            rightState.markChanged(key);
          }
        }
      }
    }
    if (spec.type() == StreamJoinType.LEFT_SEMI && matched) {
      out.add(row);
    }
    if (key == null || leftExpired(row, watermark)) {
      if (!matched && spec.type().keepsLeft()) {
        out.add(joined(row, null));
      }
      return;
    }
    leftState.add(key, row, matched);
  }

  private void rightRow(Row row, long watermark, EvalContext context, List<Row> out) {
    Row key = key(row, rightKeys);
    boolean matched = false;
    if (key != null) {
      for (Object[] other : leftState.rows(key)) {
        Row l = Row.of(other);
        if (!matches(l, row, context)) {
          continue;
        }
        matched = true;
        boolean leftMatchedBefore = (Boolean) other[leftState.width()];
        if (spec.type() != StreamJoinType.LEFT_SEMI) {
          out.add(joined(l, row));
        } else if (!leftMatchedBefore) {
          out.add(Row.of(java.util.Arrays.copyOf(other, leftState.width())));
        }
        if (!leftMatchedBefore) {
          other[leftState.width()] = true;
          leftState.markChanged(key);
        }
      }
    }
    if (key == null || rightExpired(row, watermark)) {
      if (!matched && spec.type().keepsRight()) {
        out.add(joined(null, row));
      }
      return;
    }
    rightState.add(key, row, matched);
  }

  private void evict(long watermark, List<Row> out) {
    if (maxDiff != null) {
      leftState.evict(v -> leftExpired(Row.of(v), watermark), v -> {
        if (spec.type().keepsLeft() && !(Boolean) v[leftState.width()]) {
          out.add(joined(Row.of(java.util.Arrays.copyOf(v, leftState.width())), null));
        }
      });
    }
    if (minDiff != null) {
      rightState.evict(v -> rightExpired(Row.of(v), watermark), v -> {
        if (spec.type().keepsRight() && !(Boolean) v[rightState.width()]) {
          out.add(joined(null, Row.of(java.util.Arrays.copyOf(v, rightState.width()))));
        }
      });
    }
  }

  /** No right row still to come can match: every one has {@code R > watermark}, and a match needs {@code R <= T + max}. */
  private boolean leftExpired(Row row, long watermark) {
    Instant t = maxDiff == null ? null : (Instant) row.get(leftTime);
    return t != null && saturatedAdd(micros(t), maxDiff) <= watermark;
  }

  /** No left row still to come can match: every one has {@code T > watermark}, and a match needs {@code T <= R - min}. */
  private boolean rightExpired(Row row, long watermark) {
    Instant t = minDiff == null ? null : (Instant) row.get(rightTime);
    return t != null && saturatedAdd(micros(t), -minDiff) <= watermark;
  }

  private boolean matches(Row l, Row r, EvalContext context) {
    if (condition == null) {
      return true;
    }
    int lw = leftState.width();
    Object[] values = new Object[lw + rightInCondition.length + (aliases ? 2 : 0)];
    for (int i = 0; i < lw; i++) {
      values[i] = l.get(i);
    }
    for (int i = 0; i < rightInCondition.length; i++) {
      values[lw + i] = r.get(rightInCondition[i]);
    }
    if (aliases) {
      values[values.length - 2] = l;
      values[values.length - 1] = r;
    }
    return condition.test(Row.of(values), context);
  }

  private Row joined(Row l, Row r) {
    if (spec.type() == StreamJoinType.LEFT_SEMI) {
      return l;
    }
    Object[] values = new Object[schema.size()];
    int at = 0;
    for (int i = 0; i < leftKeys.length && !spec.usingKeys().isEmpty(); i++) {
      values[at++] = l != null ? l.get(leftKeys[i]) : r.get(rightKeys[i]);
    }
    for (int i : leftOut) {
      values[at++] = l == null ? null : l.get(i);
    }
    for (int i : rightOut) {
      values[at++] = r == null ? null : r.get(i);
    }
    return Row.of(values);
  }

  private static Row key(Row row, int[] keys) {
    Object[] values = new Object[keys.length];
    for (int i = 0; i < keys.length; i++) {
      values[i] = row.get(keys[i]);
      if (values[i] == null) {
        return null; // SQL equality: a null key matches nothing
      }
    }
    return Row.of(values);
  }

  private static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : r;
  }
}
