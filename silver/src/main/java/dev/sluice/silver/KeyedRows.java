package dev.sluice.silver;

import dev.sluice.table.LocatedRow;
import dev.sluice.table.Snapshot;
import dev.sluice.table.Table;
import dev.sluice.table.data.CloseableIterator;
import dev.sluice.table.data.Row;
import dev.sluice.table.expressions.Predicate;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.BitSet;
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
    return read(snapshot, schema, keyColumns, keys, null);
  }

  /**
   * Same, also noting in {@code locations} (unless null) where each row found is stored: per data file, its row
   * indexes (what {@link dev.sluice.table.Merge#targetRowsAt} takes).
   */
  static Map<List<Object>, List<Row>> read(Snapshot snapshot, StructType schema, List<String> keyColumns,
      Set<List<Object>> keys, Map<String, BitSet> locations) {
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
    try (CloseableIterator<LocatedRow> rows = snapshot.scan().select(schema.fieldNames())
        .filter(Predicate.and(parts)).build().locatedRows()) {
      while (rows.hasNext()) {
        LocatedRow located = rows.next();
        Row row = located.row();
        List<Object> key = SilverSchemas.key(row, keyPos);
        if (keys.contains(key)) {
          out.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
          if (locations != null) {
            locations.computeIfAbsent(located.file(), f -> new BitSet()).set(Math.toIntExact(located.rowIndex()));
          }
        }
      }
    }
    return out;
  }
}
