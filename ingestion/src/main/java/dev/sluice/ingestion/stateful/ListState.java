package dev.sluice.ingestion.stateful;

import java.util.Iterator;
import java.util.List;

/** A list per key (Spark's {@code ListState}); with a TTL, each element expires on its own. */
public interface ListState<S> {
  boolean exists();

  /** The elements in order of appending (empty when none). */
  Iterator<S> get();

  /** Replaces the list. */
  void put(List<S> values);

  void appendValue(S value);

  void appendList(List<S> values);

  void clear();
}
