package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.PlanStep;

/** A {@code mapGroupsWithState}, {@code flatMapGroupsWithState} or {@code transformWithState} step, for the analyzer. */
public interface ArbitraryStateStep extends PlanStep {
  /** {@code mapGroupsWithState}, {@code flatMapGroupsWithState} or {@code transformWithState}. */
  String operator();

  /** The output mode given to the operator itself (null when it takes none, as {@code mapGroupsWithState}). */
  OutputMode declaredMode();

  /** Whether its timeouts or timers run on event time (they then need a watermark). */
  boolean usesEventTime();

  @Override
  default Kind kind() {
    return Kind.ARBITRARY_STATE;
  }
}
