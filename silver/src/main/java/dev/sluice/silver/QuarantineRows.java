package dev.sluice.silver;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;

/**
 * The rows of {@code <table>_quarantine}: the row's columns as they were when checked, then
 * {@code _failed_expectations} (the broken rules' names, comma-separated in the order of the config) and
 * {@code _batch_id} (the silver batch). A row that already has one of these columns (bronze's own
 * {@code _batch_id}) gets it replaced in place.
 */
final class QuarantineRows {
  static final String FAILED = "_failed_expectations";
  static final String BATCH_ID = "_batch_id";

  private QuarantineRows() {}

  static StructType schema(StructType stage) {
    StructType out = stage;
    if (out.indexOf(FAILED) < 0) {
      out = out.add(StructField.of(FAILED, PrimitiveType.STRING));
    }
    if (out.indexOf(BATCH_ID) < 0) {
      out = out.add(StructField.of(BATCH_ID, PrimitiveType.LONG));
    }
    return withType(withType(out, FAILED, PrimitiveType.STRING), BATCH_ID, PrimitiveType.LONG);
  }

  /** {@code row} (of the stage schema) with the quarantine columns of {@code schema}, made by {@link #schema}. */
  static Row of(Row row, String failed, long batchId, StructType schema) {
    Object[] values = new Object[schema.size()];
    for (int i = 0; i < row.size(); i++) {
      values[i] = row.get(i);
    }
    values[schema.indexOf(FAILED)] = failed;
    values[schema.indexOf(BATCH_ID)] = batchId;
    return Row.of(values);
  }

  private static StructType withType(StructType schema, String name, PrimitiveType type) {
    int i = schema.indexOf(name);
    if (schema.field(i).type() == type) {
      return schema;
    }
    java.util.List<StructField> fields = new java.util.ArrayList<>(schema.fields());
    fields.set(i, StructField.of(name, type));
    return new StructType(fields);
  }
}
