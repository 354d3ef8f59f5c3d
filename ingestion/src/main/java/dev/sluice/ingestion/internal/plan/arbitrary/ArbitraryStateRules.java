package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.AnalysisException;
import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.PlanStep;
import java.util.List;
import java.util.Locale;

/**
 * Spark's {@code UnsupportedOperationChecker} rules for arbitrary stateful operators: {@code mapGroupsWithState}
 * only in update mode; {@code flatMapGroupsWithState}'s declared mode equal to the query's; none of them in complete
 * mode, after an aggregation, or (in update mode) before one; event-time timeouts and timers need a watermark.
 */
public final class ArbitraryStateRules {
  private ArbitraryStateRules() {}

  /**
   * @throws AnalysisException naming the operator, the mode and the fix
   */
  public static void check(List<PlanStep> steps, OutputMode mode) {
    boolean watermark = false;
    PlanStep aggregation = null;
    ArbitraryStateStep arbitrary = null;
    for (PlanStep step : steps) {
      if (step.kind() == PlanStep.Kind.WATERMARK) {
        watermark = true;
      } else if (step.kind() == PlanStep.Kind.AGGREGATE) {
        if (arbitrary != null && mode != OutputMode.APPEND) {
          throw new AnalysisException(step.describe() + " after " + arbitrary.describe() + " is not supported in "
              + name(mode) + " output mode: the aggregation would see the operator's updates as new rows. Use"
              + " flatMapGroupsWithState with OutputMode.append() and outputMode(\"append\"), or aggregate in a"
              + " downstream query reading this one's table.");
        }
        aggregation = step;
      } else if (step instanceof ArbitraryStateStep a) {
        checkOne(a, mode, watermark, aggregation);
        arbitrary = a;
      }
    }
  }

  private static void checkOne(ArbitraryStateStep step, OutputMode mode, boolean watermark, PlanStep aggregation) {
    String op = step.describe();
    if (mode == OutputMode.COMPLETE) {
      throw new AnalysisException(op + " is not supported in complete output mode: its state is per key and it"
          + " emits what the function returns, not a result table to rewrite. Use outputMode(\"update\")"
          + (step.operator().equals("mapGroupsWithState") ? "" : " or outputMode(\"append\")") + ".");
    }
    if (step.operator().equals("mapGroupsWithState") && mode != OutputMode.UPDATE) {
      throw new AnalysisException(op + " is not supported in " + name(mode) + " output mode: mapGroupsWithState"
          + " emits a row per key every time the key gets data, which updates earlier rows. Use"
          + " outputMode(\"update\"), or flatMapGroupsWithState with OutputMode.append() for append.");
    }
    if (step.declaredMode() != null && step.declaredMode() != mode) {
      throw new AnalysisException(op + " was declared with output mode " + name(step.declaredMode())
          + " but the query runs in " + name(mode) + " output mode. Pass the same mode to " + step.operator()
          + " and to writeStream().outputMode(…).");
    }
    if (aggregation != null) {
      throw new AnalysisException(op + " after " + aggregation.describe() + " is not supported (in " + name(mode)
          + " output mode): the aggregate rows of a streaming aggregation change between batches. Apply "
          + step.operator() + " to the stream before aggregating, or read the aggregation's table in another query.");
    }
    if (step.usesEventTime() && !watermark) {
      throw new AnalysisException(op + " uses event-time " + (step.operator().equals("transformWithState")
          ? "timers (TimeMode.EventTime)" : "timeouts (EventTimeTimeout)") + " but the query has no watermark (in "
          + name(mode) + " output mode), so they could never fire. Call withWatermark(eventTimeColumn, delay) before"
          + " groupByKey.");
    }
  }

  private static String name(OutputMode mode) {
    return mode.name().toLowerCase(Locale.ROOT);
  }
}
