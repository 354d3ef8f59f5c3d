package dev.sluice.ingestion.stateful;

import dev.sluice.table.data.Row;
import java.util.Iterator;

/**
 * The function of {@code flatMapGroupsWithState}: any number of outputs per key that has data or timed out.
 *
 * @param <S> the state type
 * @param <O> the output type
 */
@FunctionalInterface
public interface FlatMapGroupsWithStateFunction<S, O> extends java.io.Serializable {
  /**
   * @param key the grouping columns' values
   * @param values the key's rows of this batch, in arrival order (none on a timeout)
   */
  Iterator<O> call(Row key, Iterator<Row> values, GroupState<S> state) throws Exception;
}
