package dev.sluice.ingestion.stateful;

import dev.sluice.table.data.Row;
import java.util.Iterator;

/**
 * The function of {@code mapGroupsWithState}: one output per key that has data or timed out.
 *
 * @param <S> the state type
 * @param <O> the output type
 */
@FunctionalInterface
public interface MapGroupsWithStateFunction<S, O> extends java.io.Serializable {
  /**
   * @param key the grouping columns' values
   * @param values the key's rows of this batch, in arrival order (none on a timeout)
   */
  O call(Row key, Iterator<Row> values, GroupState<S> state) throws Exception;
}
