package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.OutputMode;
import dev.sluice.ingestion.internal.plan.MultiInputSpec;
import dev.sluice.ingestion.internal.plan.MultiInputTransform;
import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * A stream-stream join as the user wrote it: each side's sources (by count, left first) and steps, the join type,
 * equality keys named alike on both sides ({@code usingKeys}, output once) and/or an SQL condition over both
 * sides (equalities {@code a = b} between the sides are keys too; {@code alias.column} names a side's column).
 */
public record StreamJoinSpec(StreamJoinType type, int leftSources, List<TransformSpec> leftSteps, int rightSources,
    List<TransformSpec> rightSteps, List<String> usingKeys, String condition, String leftAlias, String rightAlias,
    OutputMode outputMode) implements MultiInputSpec {
  public StreamJoinSpec {
    leftSteps = List.copyOf(leftSteps);
    rightSteps = List.copyOf(rightSteps);
    usingKeys = List.copyOf(usingKeys);
  }

  @Override
  public MultiInputTransform bindInputs(List<StructType> sources) {
    return StreamStreamJoin.bind(this, sources);
  }

  @Override
  public int sourceCount() {
    return leftSources + rightSources;
  }

  /** The join as text for messages, e.g. {@code LeftOuter join on [ad_id] and clicks.t BETWEEN …}. */
  public String describe() {
    return type.sparkName() + " stream-stream join" + (usingKeys.isEmpty() ? "" : " using " + usingKeys)
        + (condition == null ? "" : " on " + condition);
  }
}
