package dev.sluice.ingestion.internal.plan.aggregate;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import java.util.List;

/**
 * One bound aggregate: the buffer columns it keeps in state (a slice of the value row starting at
 * {@code at}), how an input row updates them and the result they give. Buffers are plain values
 * except where {@link #detach} says otherwise.
 */
interface Aggregator {
  /** The buffer columns, named without a prefix ({@code sum}, {@code count}, …). */
  List<StructField> bufferFields();

  StructField resultField();

  void init(Object[] buffer, int at);

  void update(Object[] buffer, int at, Row input);

  Object result(Object[] buffer, int at);

  /**
   * Folds the buffer at {@code from[fromAt]} into {@code into[at]}, as if {@code into} had also seen every row
   * {@code from} saw: session windows need it when a new row bridges two sessions.
   */
  void merge(Object[] into, int at, Object[] from, int fromAt);

  /**
   * Copies mutable buffer values read from the store before they are updated in place, so that the
   * store's previous version (which a provider may cache) never changes.
   */
  default void detach(Object[] buffer, int at) {}
}
