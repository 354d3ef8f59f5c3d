package dev.sluice.ingestion.internal.plan.join;

import dev.sluice.ingestion.internal.plan.TransformSpec;
import dev.sluice.table.types.StructType;
import java.util.List;

/**
 * An unbound stream-static join: stream rows (left) joined to a static side (right) by equality of key
 * column pairs, with an optional extra SQL condition over the joined columns.
 *
 * @param leftKeys stream columns, pairwise equal to {@code rightKeys}
 * @param rightKeys static columns
 * @param extraCondition an SQL condition over the joined schema that a match must also meet, or null
 * @param refresh when to re-read the static side; null for the side's default
 */
public record StaticJoinSpec(JoinType type, StaticSide side, List<String> leftKeys, List<String> rightKeys,
    String extraCondition, RefreshPolicy refresh) implements TransformSpec {
  public StaticJoinSpec {
    leftKeys = List.copyOf(leftKeys);
    rightKeys = List.copyOf(rightKeys);
    if (refresh == null) {
      refresh = side.defaultRefresh();
    }
  }

  /** A join on columns named the same on both sides, with the side's default refresh. */
  public static StaticJoinSpec on(JoinType type, StaticSide side, List<String> keys) {
    return new StaticJoinSpec(type, side, keys, keys, null, null);
  }

  /** A join on pairs of columns, with the side's default refresh. */
  public static StaticJoinSpec on(JoinType type, StaticSide side, List<String> leftKeys, List<String> rightKeys) {
    return new StaticJoinSpec(type, side, leftKeys, rightKeys, null, null);
  }

  public StaticJoinSpec withCondition(String condition) {
    return new StaticJoinSpec(type, side, leftKeys, rightKeys, condition, refresh);
  }

  public StaticJoinSpec withRefresh(RefreshPolicy policy) {
    return new StaticJoinSpec(type, side, leftKeys, rightKeys, extraCondition, policy);
  }

  /**
   * Reads the static side's schema (not its rows) and binds the join.
   *
   * @throws IllegalArgumentException naming an unknown or mistyped key column, a clash of column names, a bad
   *     condition, or a missing static table
   */
  @Override
  public StaticJoin bind(StructType input) {
    return StaticJoin.bind(this, input);
  }
}
