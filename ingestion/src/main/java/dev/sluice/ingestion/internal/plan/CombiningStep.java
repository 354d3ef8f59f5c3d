package dev.sluice.ingestion.internal.plan;

import java.util.List;

/** A step that combines streams (a stream-stream join, a union): the analyzer also checks each input's steps. */
public interface CombiningStep extends PlanStep {
  /** Each input's steps, as the user wrote them. */
  List<List<PlanStep>> inputs();
}
