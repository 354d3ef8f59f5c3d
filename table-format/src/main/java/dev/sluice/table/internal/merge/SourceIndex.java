package dev.sluice.table.internal.merge;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.DuplicateMergeKeyException;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The MERGE source by key: one row per key (several rows for a key are an error unless a
 * "latest by" column picks the one with the greatest value), plus the rows whose key has a null part
 * (they can never match). Keyed rows have a position (in order of their key's first arrival), so that
 * matching can mark them in an array rather than a set of keys.
 */
public final class SourceIndex {
  private final Map<Object, Integer> positions;
  private final List<Object> keys = new ArrayList<>();
  private final List<Row> rows = new ArrayList<>();
  private final List<Row> nullKeyed = new ArrayList<>();
  private final int[] keyPositions;

  /**
   * @param latestBy column of the source deciding between rows with one key (greatest wins; nulls lose), or null
   * @throws DuplicateMergeKeyException when a key occurs twice and {@code latestBy} is null
   */
  public SourceIndex(StructType schema, List<String> keyColumns, Iterable<Row> source, String latestBy) {
    keyPositions = positions(schema, keyColumns, "source");
    positions = new HashMap<>(Math.max(16, source instanceof java.util.Collection<?> c ? (int) (c.size() / 0.75f) + 1 : 16));
    int order = latestBy == null ? -1 : schema.indexOf(latestBy);
    if (latestBy != null && order < 0) {
      throw new IllegalArgumentException("MERGE latest-by column '" + latestBy + "' is not in the source; its columns are "
          + schema.fieldNames());
    }
    for (Row r : source) {
      Object k = MergeKey.of(r, keyPositions);
      if (k == null) {
        nullKeyed.add(r);
        continue;
      }
      Integer previous = positions.putIfAbsent(k, rows.size());
      if (previous == null) {
        keys.add(k);
        rows.add(r);
      } else if (order < 0) {
        throw new DuplicateMergeKeyException("The MERGE source has several rows with key " + keyColumns + " = " + k
            + "; a target row may be changed by one source row only. Deduplicate the source, or merge with"
            + " latest-by a column (e.g. an update timestamp) to keep the newest row per key.");
      } else if (newer(r.get(order), rows.get(previous).get(order))) {
        rows.set(previous, r);
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean newer(Object candidate, Object current) {
    if (candidate == null) {
      return false;
    }
    if (current == null) {
      return true;
    }
    return ((Comparable) candidate).compareTo(current) >= 0;
  }

  /** Positions of {@code keys} in {@code schema}; errors name the side and the known columns. */
  public static int[] positions(StructType schema, List<String> keys, String side) {
    int[] out = new int[keys.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = schema.indexOf(keys.get(i));
      if (out[i] < 0) {
        throw new IllegalArgumentException("MERGE key '" + keys.get(i) + "' is not a column of the " + side
            + "; its columns are " + schema.fieldNames());
      }
    }
    return out;
  }

  /** The position of the source row with {@code key} (made by {@link MergeKey#of}), or -1. */
  public int positionOf(Object key) {
    Integer p = key == null ? null : positions.get(key);
    return p == null ? -1 : p;
  }

  /** The number of keyed rows (positions are 0 to this, exclusive). */
  public int keyed() {
    return rows.size();
  }

  public Row row(int position) {
    return rows.get(position);
  }

  public Object key(int position) {
    return keys.get(position);
  }

  public List<Row> nullKeyed() {
    return nullKeyed;
  }

  public int size() {
    return rows.size() + nullKeyed.size();
  }
}
