package dev.sluice.ingestion;

import dev.sluice.ingestion.internal.plan.EventTimeWatermark;
import dev.sluice.ingestion.internal.plan.Filter;
import dev.sluice.ingestion.internal.plan.PlanStep;
import dev.sluice.ingestion.internal.plan.Projection;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.ingestion.internal.plan.dedup.DedupSpec;
import dev.sluice.ingestion.internal.plan.join.JoinType;
import dev.sluice.ingestion.internal.plan.join.StaticJoinSpec;
import dev.sluice.ingestion.internal.runner.SourceSpec;
import dev.sluice.table.types.StructType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An unbounded table being defined: a source plus per-batch steps (Spark's streaming DataFrame).
 * Immutable: each step returns a new frame. Expressions are SQL strings, checked when the query starts.
 */
public final class StreamFrame {
  private final SluiceSession session;
  private final List<SourceSpec> sources;
  private final List<PlanStep> steps;
  private final String alias;

  StreamFrame(SluiceSession session, SourceSpec source, List<PlanStep> steps) {
    this(session, List.of(source), steps, null);
  }

  private StreamFrame(SluiceSession session, List<SourceSpec> sources, List<PlanStep> steps, String alias) {
    this.session = session;
    this.sources = List.copyOf(sources);
    this.steps = List.copyOf(steps);
    this.alias = alias;
  }

  private StreamFrame with(String description, TransformSpec step) {
    return with(PlanStep.stateless(description, step));
  }

  StreamFrame with(PlanStep step) {
    List<PlanStep> next = new ArrayList<>(steps);
    next.add(step);
    return new StreamFrame(session, sources, next, alias);
  }

  /** Columns or expressions with optional aliases: {@code select("id", "amount * 2 AS doubled")}. */
  public StreamFrame select(String... expressions) {
    return with("select" + List.of(expressions), Projection.select(List.of(expressions)));
  }

  /** Same as {@link #select}, the Spark name for expression strings. */
  public StreamFrame selectExpr(String... expressions) {
    return select(expressions);
  }

  /** Rows for which the SQL condition is true. */
  public StreamFrame filter(String condition) {
    return with("filter(" + condition + ")", Filter.of(condition));
  }

  /** Same as {@link #filter}. */
  public StreamFrame where(String condition) {
    return filter(condition);
  }

  /** Adds (or replaces) a column computed by an SQL expression. */
  public StreamFrame withColumn(String name, String expression) {
    return with("withColumn(" + name + ")", Projection.withColumn(name, expression));
  }

  /** Removes columns. */
  public StreamFrame drop(String... columns) {
    return with("drop" + List.of(columns), Projection.drop(List.of(columns)));
  }

  /**
   * Declares {@code column} (a timestamp) as event time with a lateness bound: after each batch the
   * watermark moves to the greatest event time seen minus {@code delay} (e.g. {@code "10 minutes"}).
   * Stateful steps after it drop rows older than the watermark and evict state it has passed.
   */
  public StreamFrame withWatermark(String column, String delay) {
    return with(new WatermarkStep(column, delay, Durations.parse(delay, "withWatermark delay")));
  }

  /** The last {@code withWatermark} step, if any. */
  WatermarkStep watermark() {
    WatermarkStep found = null;
    for (PlanStep s : steps) {
      if (s instanceof dev.sluice.ingestion.internal.plan.CombiningStep c) {
        for (List<PlanStep> in : c.inputs()) {
          for (PlanStep n : in) {
            found = n instanceof WatermarkStep w ? w : found;
          }
        }
      }
      if (s instanceof WatermarkStep w) {
        found = w;
      }
    }
    return found;
  }

  /**
   * Drops rows whose {@code columns} (all columns when none are given) were seen before. With the
   * event-time column among them, a key is forgotten once the watermark passes it; otherwise keys are
   * kept forever (state grows: prefer {@link #dropDuplicatesWithinWatermark}).
   */
  public StreamFrame dropDuplicates(String... columns) {
    WatermarkStep w = watermark();
    DedupSpec spec = DedupSpec.dropDuplicates(List.of(columns), w == null ? null : w.column(), w == null ? 0 : w.delay().toMillis());
    return with(new StatefulStep(PlanStep.Kind.DEDUP, "dropDuplicates" + List.of(columns), spec,
        Map.of("columns", String.join(",", columns), "eventTimeColumn", w == null ? "" : w.column())));
  }

  /**
   * Drops rows whose {@code columns} were seen within the watermark delay of their first occurrence
   * (Spark 3.5's {@code dropDuplicatesWithinWatermark}); needs {@link #withWatermark} before it.
   */
  public StreamFrame dropDuplicatesWithinWatermark(String... columns) {
    WatermarkStep w = watermark();
    String description = "dropDuplicatesWithinWatermark" + List.of(columns);
    TransformSpec spec = w == null
        ? input -> {
          throw new AnalysisException(description + " needs a watermark: call withWatermark(eventTimeColumn, delay) before it.");
        }
        : DedupSpec.dropDuplicatesWithinWatermark(List.of(columns), w.column(), w.delay().toMillis());
    return with(new StatefulStep(PlanStep.Kind.DEDUP_WITHIN_WATERMARK, description, spec,
        Map.of("columns", String.join(",", columns), "eventTimeColumn", w == null ? "" : w.column())));
  }

  /** Groups by columns and at most one time window, e.g. {@code groupBy("window(event_time, '1 minute')", "tier")}. */
  public GroupedFrame groupBy(String... keys) {
    return new GroupedFrame(this, keys);
  }

  /**
   * Groups by key columns for arbitrary stateful processing (Spark's {@code groupByKey}):
   * {@code mapGroupsWithState}, {@code flatMapGroupsWithState} or {@code transformWithState}.
   */
  public KeyValueGroupedFrame groupByKey(String... keyColumns) {
    return new KeyValueGroupedFrame(this, List.of(keyColumns));
  }

  /** Inner join with a static table or files on equal key columns (same names on both sides). */
  public StreamFrame join(StaticTable other, String... keys) {
    return joinWith(JoinType.INNER, other, List.of(keys), List.of(keys), null);
  }

  /** Left outer join (the stream on the left): stream rows without a match get nulls for the static columns. */
  public StreamFrame leftJoin(StaticTable other, String... keys) {
    return joinWith(JoinType.LEFT_OUTER, other, List.of(keys), List.of(keys), null);
  }

  /**
   * A join with differently named keys and an optional extra SQL condition over the joined columns.
   *
   * @param type {@code inner} or {@code left_outer}
   */
  public StreamFrame join(StaticTable other, List<String> leftKeys, List<String> rightKeys, String type,
      String extraCondition) {
    JoinType t = switch (type.toLowerCase(java.util.Locale.ROOT).replace(" ", "_")) {
      case "inner" -> JoinType.INNER;
      case "left", "left_outer", "leftouter" -> JoinType.LEFT_OUTER;
      default -> throw new AnalysisException("Join type '" + type + "' is not supported for a stream-static join; use"
          + " inner or left_outer (the stream on the left)");
    };
    return joinWith(t, other, leftKeys, rightKeys, extraCondition);
  }

  private StreamFrame joinWith(JoinType type, StaticTable other, List<String> leftKeys, List<String> rightKeys,
      String extraCondition) {
    StaticJoinSpec spec = new StaticJoinSpec(type, other.side(), leftKeys, rightKeys, extraCondition, other.refresh());
    return with(PlanStep.stateless(type.name().toLowerCase(java.util.Locale.ROOT) + " join " + other, spec));
  }

  /** The {@code withWatermark} step. */
  record WatermarkStep(String column, String delayText, Duration delay) implements PlanStep {
    @Override
    public Kind kind() {
      return Kind.WATERMARK;
    }

    @Override
    public String describe() {
      return "withWatermark(" + column + ", " + delayText + ")";
    }

    @Override
    public TransformSpec spec(OutputMode mode) {
      return EventTimeWatermark.of(column, delay);
    }

    @Override
    public Map<String, String> fingerprint() {
      return Map.of("eventTimeColumn", column);
    }
  }

  /** A stateful step whose binding doesn't depend on the output mode. */
  record StatefulStep(Kind kind, String describe, TransformSpec spec, Map<String, String> fingerprint) implements PlanStep {
    @Override
    public TransformSpec spec(OutputMode mode) {
      return spec;
    }
  }

  /** The state-relevant plan, as name → value lines, for the checkpoint's compatibility check. */
  Map<String, String> fingerprint(OutputMode mode) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int n = 0; n < sources.size(); n++) {
      SourceSpec source = sources.get(n);
      out.put(sources.size() == 1 ? "source" : "source " + n,
          source.format() + " " + source.path().orElse(source.options().getOrDefault("name", "")));
    }
    boolean stateful = stepLines(steps, "", out);
    if (stateful) {
      out.put("outputMode", mode.name().toLowerCase());
    }
    return out;
  }

  /** Adds the fingerprint lines of {@code plan} under {@code prefix}; true when some step keeps state. */
  static boolean stepLines(List<PlanStep> plan, String prefix, Map<String, String> out) {
    boolean stateful = false;
    int i = 0;
    for (PlanStep s : plan) {
      if (!s.fingerprint().isEmpty()) {
        // Numbered among stateful steps only, so that adding a filter or projection changes nothing.
        String p = prefix + "step " + i + " " + s.kind().name().toLowerCase(java.util.Locale.ROOT) + " ";
        s.fingerprint().forEach((k, v) -> out.put(p + k, v));
        stateful |= s.kind() != PlanStep.Kind.WATERMARK;
        i++;
      }
    }
    return stateful;
  }

  /**
   * Names this stream for join conditions, as Spark's {@code alias}: {@code impressions.alias("imp")} lets the
   * condition say {@code imp.event_time}.
   */
  public StreamFrame alias(String name) {
    return new StreamFrame(session, sources, steps, name);
  }

  /** Same as {@link #alias}. */
  public StreamFrame as(String name) {
    return alias(name);
  }

  /**
   * A stream-stream join on an SQL condition over both streams, as Spark's {@code join(other, expr, type)}: the
   * condition needs at least one equality between a column of each side (the join keys), and for outer and semi
   * joins a time range between the sides' watermarked event-time columns, e.g.
   * {@code imp.ad_id = clicks.ad_id AND clicks.t BETWEEN imp.t AND imp.t + INTERVAL 1 HOUR}. Output: the left
   * columns, then the right ones (the left ones only for {@code left_semi}); names must not clash.
   *
   * @param type {@code inner}, {@code left_outer}, {@code right_outer}, {@code full_outer} or {@code left_semi}
   */
  public StreamFrame join(StreamFrame other, String condition, String type) {
    return streamJoin(other, List.of(), condition, type);
  }

  /**
   * A stream-stream join on key columns named alike on both sides (output once, first), plus an optional condition
   * (the time range; may be null for an inner join).
   */
  public StreamFrame join(StreamFrame other, List<String> keys, String condition, String type) {
    return streamJoin(other, keys, condition, type);
  }

  private StreamFrame streamJoin(StreamFrame other, List<String> keys, String condition, String typeText) {
    dev.sluice.ingestion.internal.plan.join.StreamJoinType type;
    try {
      type = dev.sluice.ingestion.internal.plan.join.StreamJoinType.parse(typeText);
    } catch (IllegalArgumentException e) {
      throw new AnalysisException(e.getMessage());
    }
    String leftAlias = alias;
    String rightAlias = other.alias;
    List<PlanStep> leftSteps = steps;
    List<PlanStep> rightSteps = other.steps;
    int leftCount = sources.size();
    int rightCount = other.sources.size();
    String description = type.sparkName() + " join(" + (keys.isEmpty() ? "" : keys + (condition == null ? "" : ", "))
        + (condition == null ? "" : condition) + ")";
    Map<String, String> fingerprint = new LinkedHashMap<>();
    fingerprint.put("type", type.sparkName());
    fingerprint.put("keys", String.join(",", keys));
    fingerprint.put("condition", condition == null ? "" : condition);
    stepLines(leftSteps, "left ", fingerprint);
    stepLines(rightSteps, "right ", fingerprint);
    PlanStep step = new dev.sluice.ingestion.internal.plan.CombiningStep() {
      @Override
      public Kind kind() {
        return Kind.STREAM_JOIN;
      }

      @Override
      public String describe() {
        return description;
      }

      @Override
      public TransformSpec spec(OutputMode mode) {
        return new dev.sluice.ingestion.internal.plan.join.StreamJoinSpec(type, leftCount, specs(leftSteps, mode),
            rightCount, specs(rightSteps, mode), keys, condition, leftAlias, rightAlias, mode);
      }

      @Override
      public Map<String, String> fingerprint() {
        return fingerprint;
      }

      @Override
      public List<List<PlanStep>> inputs() {
        return List.of(leftSteps, rightSteps);
      }
    };
    List<SourceSpec> all = new ArrayList<>(sources);
    all.addAll(other.sources);
    return new StreamFrame(session, all, List.of(step), null);
  }

  /**
   * The rows of this stream and of {@code others}, as Spark's {@code union}: by column position, every stream with
   * the same number of columns and the same types; the output has this stream's column names.
   */
  public StreamFrame union(StreamFrame... others) {
    List<StreamFrame> all = new ArrayList<>(List.of(this));
    all.addAll(List.of(others));
    List<SourceSpec> allSources = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    List<List<PlanStep>> inputs = new ArrayList<>();
    Map<String, String> fingerprint = new LinkedHashMap<>();
    for (int i = 0; i < all.size(); i++) {
      allSources.addAll(all.get(i).sources);
      counts.add(all.get(i).sources.size());
      inputs.add(all.get(i).steps);
      stepLines(all.get(i).steps, "input " + i + " ", fingerprint);
    }
    PlanStep step = new dev.sluice.ingestion.internal.plan.CombiningStep() {
      @Override
      public Kind kind() {
        return Kind.UNION;
      }

      @Override
      public String describe() {
        return "union of " + all.size() + " streams";
      }

      @Override
      public TransformSpec spec(OutputMode mode) {
        List<List<TransformSpec>> specs = new ArrayList<>();
        inputs.forEach(in -> specs.add(specs(in, mode)));
        return dev.sluice.ingestion.internal.plan.Union.of(counts, specs);
      }

      @Override
      public Map<String, String> fingerprint() {
        return fingerprint;
      }

      @Override
      public List<List<PlanStep>> inputs() {
        return inputs;
      }
    };
    return new StreamFrame(session, allSources, List.of(step), null);
  }

  private static List<TransformSpec> specs(List<PlanStep> plan, OutputMode mode) {
    List<TransformSpec> out = new ArrayList<>();
    plan.forEach(s -> out.add(s.spec(mode)));
    return out;
  }

  /** A custom step over whole batches (see {@link BatchTransformer}). */
  public StreamFrame mapBatches(String description, BatchTransformer transformer) {
    return with(description, input -> {
      StructType output = transformer.outputSchema(input);
      return new dev.sluice.ingestion.internal.plan.Transform() {
        @Override
        public StructType schema() {
          return output;
        }

        @Override
        public Batch apply(Batch batch, BatchInfo info) {
          return transformer.apply(batch, new BatchTransformer.Context() {
            @Override
            public java.util.UUID queryId() {
              return info.queryId();
            }

            @Override
            public long batchId() {
              return info.batchId();
            }

            @Override
            public java.time.Instant batchTimestamp() {
              return info.batchTimestamp();
            }

            @Override
            public long watermarkMs() {
              return info.watermarkMs();
            }

            @Override
            public void count(String metric, long delta) {
              info.count(metric, delta);
            }
          });
        }

        @Override
        public String describe() {
          return description;
        }
      };
    });
  }

  /** Starts describing where the stream goes. */
  public DataStreamWriter writeStream() {
    return new DataStreamWriter(session, this);
  }

  SourceSpec source() {
    return sources.get(0);
  }

  List<SourceSpec> sources() {
    return sources;
  }

  List<PlanStep> steps() {
    return steps;
  }
}
