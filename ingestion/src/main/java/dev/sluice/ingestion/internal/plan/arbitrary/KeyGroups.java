package dev.sluice.ingestion.internal.plan.arbitrary;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The grouping columns of {@code groupByKey(cols…)} bound to an input schema: the key schema, and a batch's
 * rows grouped by key in order of first arrival (rows of a key keep their arrival order, as Spark's sort-based
 * grouping keeps them within a partition).
 */
final class KeyGroups {
  private final int[] ordinals;
  private final StructType keySchema;
  private final List<String> names;

  private KeyGroups(int[] ordinals, StructType keySchema, List<String> names) {
    this.ordinals = ordinals;
    this.keySchema = keySchema;
    this.names = names;
  }

  /**
   * @throws IllegalArgumentException naming an unknown column and the known ones
   */
  static KeyGroups resolve(String operator, List<String> columns, StructType input) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException(operator + ": groupByKey needs at least one key column, e.g."
          + " groupByKey(\"user\")");
    }
    int[] ordinals = new int[columns.size()];
    List<StructField> fields = new ArrayList<>();
    for (int i = 0; i < ordinals.length; i++) {
      int at = input.indexOf(columns.get(i));
      if (at < 0) {
        throw new IllegalArgumentException(operator + ": unknown key column '" + columns.get(i) + "'; the input"
            + " columns are " + input.fieldNames());
      }
      ordinals[i] = at;
      fields.add(input.field(at));
    }
    return new KeyGroups(ordinals, new StructType(fields), List.copyOf(columns));
  }

  StructType keySchema() {
    return keySchema;
  }

  List<String> names() {
    return names;
  }

  Row keyOf(Row row) {
    Object[] values = new Object[ordinals.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(ordinals[i]);
    }
    return Row.of(values);
  }

  Map<Row, List<Row>> group(Iterable<Row> rows) {
    Map<Row, List<Row>> out = new LinkedHashMap<>();
    for (Row r : rows) {
      out.computeIfAbsent(keyOf(r), k -> new ArrayList<>()).add(r);
    }
    return out;
  }
}
