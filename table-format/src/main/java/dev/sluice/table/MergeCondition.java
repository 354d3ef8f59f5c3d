package dev.sluice.table;

import java.util.Objects;

/**
 * A condition of a MERGE clause over the matched target row (table schema) and the source row
 * (source schema). The streaming engine compiles SQL conditions into these; Java callers may write
 * lambdas. A MERGE merges its target files on several threads, so a condition may be called concurrently
 * (each call with its own {@link MergeRows}): it must not change shared state.
 */
@FunctionalInterface
public interface MergeCondition {
  boolean test(MergeRows rows);

  /** Always true. */
  static MergeCondition always() {
    return rows -> true;
  }

  /**
   * {@code source.column > target.column}, the usual "newer version wins" guard; a null target
   * value loses to any non-null source value, a null source value never wins.
   */
  static MergeCondition sourceGreaterThanTarget(String column) {
    Objects.requireNonNull(column);
    return rows -> {
      Object s = rows.source(column);
      Object t = rows.target(column);
      if (s == null) {
        return false;
      }
      if (t == null) {
        return true;
      }
      @SuppressWarnings({"unchecked", "rawtypes"})
      int c = ((Comparable) s).compareTo(t);
      return c > 0;
    };
  }
}
