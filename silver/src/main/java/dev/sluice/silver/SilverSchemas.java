package dev.sluice.silver;

import dev.sluice.config.DerivedColumn;
import dev.sluice.ingestion.expr.BoundExpression;
import dev.sluice.ingestion.expr.ExpressionException;
import dev.sluice.ingestion.expr.Expressions;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/** Schemas and keys of the silver stages. */
final class SilverSchemas {
  private SilverSchemas() {}

  /**
   * The schema after the derived columns, computed as the engine's {@code withColumn} does (a column of the
   * same name, ignoring case, is replaced in place; a new one is appended), so that the silver table can be
   * created before the first batch.
   */
  static StructType stage(String pipeline, StructType bronze, List<DerivedColumn> columns) {
    StructType schema = bronze;
    for (DerivedColumn c : columns) {
      BoundExpression bound;
      try {
        bound = Expressions.bind(c.expr(), schema);
      } catch (ExpressionException e) {
        throw new IllegalArgumentException("Pipeline '" + pipeline + "': column '" + c.name() + "' has an invalid"
            + " expression '" + c.expr() + "': " + e.getMessage(), e);
      }
      StructField field = StructField.of(c.name(), bound.type(), bound.nullable());
      List<StructField> fields = new ArrayList<>(schema.fields());
      int i = indexIgnoringCase(schema, c.name());
      if (i >= 0) {
        fields.set(i, field);
      } else {
        fields.add(field);
      }
      schema = new StructType(fields);
    }
    return schema;
  }

  private static int indexIgnoringCase(StructType schema, String name) {
    for (int i = 0; i < schema.size(); i++) {
      if (schema.field(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The positions of {@code columns} in {@code schema}. */
  static int[] positions(StructType schema, List<String> columns) {
    int[] out = new int[columns.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = schema.indexOf(columns.get(i));
      if (out[i] < 0) {
        throw new IllegalArgumentException("Column '" + columns.get(i) + "' is not in the silver stream, whose columns"
            + " are " + schema.fieldNames() + "; fix sink.merge or add the column under columns");
      }
    }
    return out;
  }

  /** The key values of a row, or null when one of them is null (such a row matches nothing). */
  static List<Object> key(Row row, int[] positions) {
    Object[] values = new Object[positions.length];
    for (int i = 0; i < positions.length; i++) {
      values[i] = row.get(positions[i]);
      if (values[i] == null) {
        return null;
      }
    }
    return new KeyValues(values);
  }
}
