package dev.sluice.silver;

import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a table's rows of some keys (only files that may hold them, by stats), grouped by key. */
final class KeyedRows {
  private KeyedRows() {}

  /**
   * The rows of {@code table} (columns of {@code schema}, in its order) whose {@code keyColumns} equal one of
   * {@code keys}; keys without rows are absent.
   */
  static Map<List<Object>, List<Row>> read(Table table, StructType schema, List<String> keyColumns,
      Set<List<Object>> keys) {
    return read(keys.isEmpty() || !table.exists() ? null : table.latestSnapshot(), schema, keyColumns, keys);
  }

  /** Same, in {@code snapshot} (null: a table that doesn't exist). */
  static Map<List<Object>, List<Row>> read(Snapshot snapshot, StructType schema, List<String> keyColumns,
      Set<List<Object>> keys) {
    Map<List<Object>, List<Row>> out = new HashMap<>();
    if (keys.isEmpty() || snapshot == null) {
      return out;
    }
    List<Predicate> parts = new ArrayList<>();
    for (int i = 0; i < keyColumns.size(); i++) {
      Set<Object> values = new LinkedHashSet<>();
      for (List<Object> k : keys) {
        values.add(k.get(i));
      }
      parts.add(Predicate.in(keyColumns.get(i), new ArrayList<>(values)));
    }
    int[] keyPos = SilverSchemas.positions(schema, keyColumns);
    try (CloseableIterator<Row> rows = snapshot.scan().select(schema.fieldNames())
        .filter(Predicate.and(parts)).build().rows()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        List<Object> key = SilverSchemas.key(row, keyPos);
        if (keys.contains(key)) {
          out.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
      }
    }
    return out;
  }
}
