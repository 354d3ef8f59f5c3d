package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.ingestion.stateful.FlatMapGroupsWithStateFunction;
import dev.sluice.ingestion.stateful.GroupState;
import dev.sluice.ingestion.stateful.MapGroupsWithStateFunction;
import dev.sluice.table.data.Row;
import java.util.Collections;
import java.util.Iterator;

/** The user's function of either {@code mapGroupsWithState} (one output) or {@code flatMapGroupsWithState}. */
public interface GroupFunction<S, O> {
  Iterator<O> call(Row key, Iterator<Row> values, GroupState<S> state) throws Exception;

  /** The user's class, for the checkpoint fingerprint and messages. */
  Class<?> userClass();

  static <S, O> GroupFunction<S, O> of(MapGroupsWithStateFunction<S, O> f) {
    return new GroupFunction<>() {
      @Override
      public Iterator<O> call(Row key, Iterator<Row> values, GroupState<S> state) throws Exception {
        return Collections.singletonList(f.call(key, values, state)).iterator();
      }

      @Override
      public Class<?> userClass() {
        return f.getClass();
      }
    };
  }

  static <S, O> GroupFunction<S, O> of(FlatMapGroupsWithStateFunction<S, O> f) {
    return new GroupFunction<>() {
      @Override
      public Iterator<O> call(Row key, Iterator<Row> values, GroupState<S> state) throws Exception {
        Iterator<O> out = f.call(key, values, state);
        return out == null ? Collections.emptyIterator() : out;
      }

      @Override
      public Class<?> userClass() {
        return f.getClass();
      }
    };
  }

  /**
   * A stable name for a user class: a lambda's hidden class ({@code Foo$$Lambda/0x…}) differs from run to run,
   * so it is named by the class that declares it.
   */
  static String stableName(Class<?> c) {
    String name = c.getName();
    int lambda = name.indexOf("$$Lambda");
    return lambda < 0 ? name : name.substring(0, lambda) + " (lambda)";
  }
}
