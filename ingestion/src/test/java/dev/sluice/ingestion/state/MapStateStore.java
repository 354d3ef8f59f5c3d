package dev.sluice.ingestion.state;

import dev.sluice.table.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A test double: a state store over a map shared across versions (no files, no rollback), for
 * operator unit tests that don't exercise durability. Use {@link #next()} for the following batch.
 */
public final class MapStateStore implements StateStore {
  private final Map<Row, Row> map;
  private final long version;
  private long updated;
  private long removed;

  public MapStateStore() {
    this(new HashMap<>(), 1);
  }

  private MapStateStore(Map<Row, Row> map, long version) {
    this.map = map;
    this.version = version;
  }

  /** The store of the next batch, with this one's state. */
  public MapStateStore next() {
    return new MapStateStore(map, version + 1);
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public Row get(Row key) {
    return map.get(key);
  }

  @Override
  public void put(Row key, Row value) {
    map.put(key, value);
    updated++;
  }

  @Override
  public void remove(Row key) {
    if (map.remove(key) != null) {
      removed++;
    }
  }

  @Override
  public Iterator<StateEntry> iterator() {
    List<StateEntry> out = new ArrayList<>();
    map.forEach((k, v) -> out.add(new StateEntry(k, v)));
    return out.iterator();
  }

  @Override
  public long size() {
    return map.size();
  }

  @Override
  public void commit() {}

  @Override
  public void abort() {}

  @Override
  public StateStoreMetrics metrics() {
    return new StateStoreMetrics(map.size(), updated, removed, 0, 0);
  }
}
