package dev.sluice.table.internal.merge;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.DuplicateMergeKeyException;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MERGE source by key: one row per key (several rows for a key are an error unless a
 * "latest by" column picks the one with the greatest value), plus the rows whose key has a null part
 * (they can never match).
 */
public final class SourceIndex {
  private final Map<MergeKey, Row> byKey = new LinkedHashMap<>();
  private final List<Row> nullKeyed = new ArrayList<>();
  private final int[] keyPositions;

  /**
   * @param latestBy column of the source deciding between rows with one key (greatest wins; nulls lose), or null
   * @throws DuplicateMergeKeyException when a key occurs twice and {@code latestBy} is null
   */
  public SourceIndex(StructType schema, List<String> keys, List<Row> rows, String latestBy) {
    keyPositions = positions(schema, keys, "source");
    int order = latestBy == null ? -1 : schema.indexOf(latestBy);
    if (latestBy != null && order < 0) {
      throw new IllegalArgumentException("MERGE latest-by column '" + latestBy + "' is not in the source; its columns are "
          + schema.fieldNames());
    }
    for (Row r : rows) {
      MergeKey k = MergeKey.of(r, keyPositions);
      if (k == null) {
        nullKeyed.add(r);
        continue;
      }
      Row previous = byKey.get(k);
      if (previous == null) {
        byKey.put(k, r);
      } else if (order < 0) {
        throw new DuplicateMergeKeyException("The MERGE source has several rows with key " + keys + " = " + k
            + "; a target row may be changed by one source row only. Deduplicate the source, or merge with"
            + " latest-by a column (e.g. an update timestamp) to keep the newest row per key.");
      } else if (newer(r.get(order), previous.get(order))) {
        byKey.put(k, r);
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

  public Map<MergeKey, Row> byKey() {
    return byKey;
  }

  public List<Row> nullKeyed() {
    return nullKeyed;
  }

  public int size() {
    return byKey.size() + nullKeyed.size();
  }
}
