package dev.sluice.ingestion.stateful;

import dev.sluice.ingestion.OutputMode;
import java.util.Collections;
import java.util.Iterator;

/**
 * User logic of {@code transformWithState} (Spark 4's {@code StatefulProcessor}). Per batch: {@link #init} (declare
 * the state variables through {@link #getHandle()}), {@link #handleInputRows} once per key with data, then
 * {@link #handleExpiredTimer} once per expired timer (earliest first, keys with data included), then {@link #close}.
 * {@code init} also runs once when the query starts, to learn the state variables and their schemas. A class loaded
 * from YAML needs a public no-argument constructor.
 *
 * @param <K> the key type ({@code Row} of the grouping columns)
 * @param <I> the input type ({@code Row})
 * @param <O> the output type
 */
public abstract class StatefulProcessor<K, I, O> implements java.io.Serializable {
  private transient StatefulProcessorHandle handle;

  /** Declares the state variables (through {@link #getHandle()}). */
  public abstract void init(OutputMode outputMode, TimeMode timeMode);

  /** Called for each key with data in the batch, with its rows in arrival order. */
  public abstract Iterator<O> handleInputRows(K key, Iterator<I> inputRows, TimerValues timerValues);

  /** Called for each timer of a key that expired (processing time or watermark strictly after it); none by default. */
  public Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo expiredTimerInfo) {
    return Collections.emptyIterator();
  }

  /** Called at the end of each batch. */
  public void close() {}

  public final StatefulProcessorHandle getHandle() {
    if (handle == null) {
      throw new IllegalStateException("The handle of " + getClass().getName() + " is set only while"
          + " transformWithState runs it; call getHandle() from init or the handle methods");
    }
    return handle;
  }

  public final void setHandle(StatefulProcessorHandle handle) {
    this.handle = handle;
  }
}
