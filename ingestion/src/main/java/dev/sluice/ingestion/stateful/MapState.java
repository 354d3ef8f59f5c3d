package dev.sluice.ingestion.stateful;

import java.util.Iterator;
import java.util.Map;

/** A map per key (Spark's {@code MapState}); with a TTL, each entry expires on its own. */
public interface MapState<K, V> {
  boolean exists();

  /** The value of {@code key}, or null. */
  V getValue(K key);

  boolean containsKey(K key);

  void updateValue(K key, V value);

  /** The entries, in no particular order. */
  Iterator<Map.Entry<K, V>> iterator();

  Iterator<K> keys();

  Iterator<V> values();

  void removeKey(K key);

  void clear();
}
