package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.AnalysisException;
import dev.sluice.ingestion.OutputMode;
import java.util.List;

/**
 * Checks a query before it starts, with Spark Structured Streaming's rules for output modes and
 * stateful operators. Each refusal names the operator, the mode and the fix.
 */
public final class Analyzer {
  private Analyzer() {}

  /**
   * @param sink the sink format ({@code delta}, {@code foreachbatch}, {@code memory}, {@code console})
   * @throws AnalysisException on the first rule the query breaks
   */
  public static void check(List<PlanStep> steps, OutputMode mode, String sink) {
    dev.sluice.ingestion.internal.plan.arbitrary.ArbitraryStateRules.check(steps, mode);
    boolean watermark = false;
    PlanStep aggregation = null;
    for (PlanStep step : steps) {
      switch (step.kind()) {
        case WATERMARK -> watermark = true;
        case AGGREGATE, SESSION_AGGREGATE -> {
          if (step.kind() == PlanStep.Kind.SESSION_AGGREGATE && mode == OutputMode.UPDATE) {
            throw new AnalysisException("Update output mode is not supported for " + step.describe() + " (a session"
                + " window, as in Spark): a later row may merge sessions already emitted. Use outputMode(\"append\")"
                + " with withWatermark(eventTimeColumn, delay) to emit each session once it closes, or"
                + " outputMode(\"complete\").");
          }
          if (aggregation != null) {
            throw new AnalysisException("Multiple streaming aggregations are not supported: " + aggregation.describe()
                + " is followed by " + step.describe() + ". Keep one aggregation per query and chain queries through"
                + " a table (e.g. silver → gold) for the next one.");
          }
          aggregation = step;
          if (mode == OutputMode.APPEND && !watermark) {
            throw new AnalysisException("Append output mode is not supported for " + step.describe() + " without a"
                + " watermark: a group could change at any later batch, so no row could ever be final. Add"
                + " withWatermark(eventTimeColumn, delay) before the aggregation and group by a window of that column,"
                + " or use outputMode(\"update\") or outputMode(\"complete\").");
          }
        }
        case DEDUP_WITHIN_WATERMARK -> {
          if (!watermark) {
            throw new AnalysisException(step.describe() + " needs a watermark (in " + name(mode) + " mode): it keeps"
                + " each key only until the watermark passes. Call withWatermark(eventTimeColumn, delay) before it.");
          }
        }
        case DEDUP -> {
          if (aggregation != null && mode == OutputMode.APPEND) {
            throw new AnalysisException(step.describe() + " after " + aggregation.describe() + " is not supported in"
                + " append mode. Deduplicate before the aggregation.");
          }
        }
        case STREAM_JOIN, UNION -> {
          watermark |= checkInputs((CombiningStep) step, mode);
        }
        case STATIC_JOIN -> {
          if (aggregation != null && mode == OutputMode.APPEND) {
            throw new AnalysisException(step.describe() + " after " + aggregation.describe() + " is not supported in"
                + " append mode. Join before aggregating.");
          }
        }
        default -> {
          // stateless steps are allowed everywhere
        }
      }
    }
    if (mode == OutputMode.COMPLETE && aggregation == null) {
      throw new AnalysisException("Complete output mode needs an aggregation: without one the result table would be"
          + " every row ever seen, rewritten each batch. Use outputMode(\"append\"), or add groupBy(...).agg(...).");
    }
    if (mode == OutputMode.UPDATE && sink.equals("delta")) {
      throw new AnalysisException("The delta sink doesn't support update output mode" + (aggregation == null ? ""
          : " for " + aggregation.describe()) + ": a Delta append can't change earlier rows. Use foreachBatch with"
          + " MergeIntoTable (MERGE by the group keys), or outputMode(\"complete\") to overwrite the table each batch.");
    }
  }

  /**
   * Spark's rules for combining streams: each input's own steps follow the rules above; a stream-stream join runs
   * only in append mode, and an outer or semi join needs a watermark on both inputs (the time range between them is
   * checked when the join binds to the schemas). Returns whether some input has a watermark.
   */
  private static boolean checkInputs(CombiningStep step, OutputMode mode) {
    boolean[] watermarked = new boolean[step.inputs().size()];
    for (int i = 0; i < watermarked.length; i++) {
      for (PlanStep s : step.inputs().get(i)) {
        watermarked[i] |= s.kind() == PlanStep.Kind.WATERMARK
            || s instanceof CombiningStep c && c.inputs().stream().anyMatch(in -> hasWatermark(in));
        if (s.kind() == PlanStep.Kind.AGGREGATE || s.kind() == PlanStep.Kind.SESSION_AGGREGATE) {
          throw new AnalysisException(s.describe() + " before " + step.describe() + " is not supported (in " + name(mode)
              + " mode): Sluice runs one aggregation per query, after any join or union. Aggregate after the join,"
              + " or write the aggregate to a table and read that table as a stream.");
        }
      }
    }
    if (step.kind() == PlanStep.Kind.STREAM_JOIN) {
      if (mode != OutputMode.APPEND) {
        throw new AnalysisException(step.describe() + " between two streams is not supported in " + name(mode)
            + " output mode, only in append (as in Spark): a joined row is final once emitted. Use"
            + " outputMode(\"append\"); to keep a latest-per-key table, MERGE the joined rows in foreachBatch.");
      }
      boolean inner = step.describe().startsWith("Inner ");
      for (int i = 0; i < 2 && !inner; i++) {
        if (!watermarked[i]) {
          throw new AnalysisException(step.describe() + " (in " + name(mode) + " mode) needs a watermark on both"
              + " streams, but the " + (i == 0 ? "left" : "right") + " one has none: without it no row could ever be"
              + " known unmatched, and state would grow forever. Call withWatermark(eventTimeColumn, delay) on both"
              + " streams before the join and bound the time between them in the condition (e.g. r.t BETWEEN l.t AND"
              + " l.t + INTERVAL 1 HOUR).");
        }
      }
    }
    for (List<PlanStep> in : step.inputs()) {
      for (PlanStep s : in) {
        if (s instanceof CombiningStep c) {
          checkInputs(c, mode);
        }
      }
    }
    boolean any = false;
    for (boolean w : watermarked) {
      any |= w;
    }
    return any;
  }

  private static boolean hasWatermark(List<PlanStep> steps) {
    return steps.stream().anyMatch(s -> s.kind() == PlanStep.Kind.WATERMARK
        || s instanceof CombiningStep c && c.inputs().stream().anyMatch(Analyzer::hasWatermark));
  }

  private static String name(OutputMode mode) {
    return mode.name().toLowerCase(java.util.Locale.ROOT);
  }
}
