package dev.sluice.ingestion.internal.plan;

import dev.sluice.ingestion.OutputMode;
import java.util.Map;

/**
 * One step of a frame as the user wrote it, before the query starts: the analyzer reads its kind,
 * the checkpoint fingerprint its state-relevant settings, and the runner binds it (output mode known).
 */
public interface PlanStep {
  /** What the analyzer needs to know about a step. */
  enum Kind { STATELESS, WATERMARK, AGGREGATE, DEDUP, DEDUP_WITHIN_WATERMARK, STATIC_JOIN, SESSION_AGGREGATE, STREAM_JOIN,
    UNION,
    /** {@code mapGroupsWithState}, {@code flatMapGroupsWithState} or {@code transformWithState}. */
    ARBITRARY_STATE }

  Kind kind();

  /** The user-facing name of the step for messages, e.g. {@code dropDuplicatesWithinWatermark(order_id)}. */
  String describe();

  /** Binds under the query's output mode. */
  TransformSpec spec(OutputMode mode);

  /** The settings that decide the shape of this step's state (empty for stateless steps). */
  default Map<String, String> fingerprint() {
    return Map.of();
  }

  /** A stateless step. */
  static PlanStep stateless(String description, TransformSpec spec) {
    return new PlanStep() {
      @Override
      public Kind kind() {
        return Kind.STATELESS;
      }

      @Override
      public String describe() {
        return description;
      }

      @Override
      public TransformSpec spec(OutputMode mode) {
        return spec;
      }
    };
  }
}
