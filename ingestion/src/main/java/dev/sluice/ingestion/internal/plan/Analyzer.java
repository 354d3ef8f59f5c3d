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

  private static String name(OutputMode mode) {
    return mode.name().toLowerCase(java.util.Locale.ROOT);
  }
}
