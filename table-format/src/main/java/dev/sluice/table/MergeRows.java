package dev.sluice.table;

import dev.sluice.table.data.Row;
import dev.sluice.table.types.StructType;

/** The pair of rows a MERGE clause condition looks at; values by column name. The target is null for inserts. */
public final class MergeRows {
  private final StructType targetSchema;
  private final StructType sourceSchema;
  private Row target;
  private Row source;

  MergeRows(StructType targetSchema, StructType sourceSchema) {
    this.targetSchema = targetSchema;
    this.sourceSchema = sourceSchema;
  }

  MergeRows with(Row targetRow, Row sourceRow) {
    this.target = targetRow;
    this.source = sourceRow;
    return this;
  }

  public Row target() {
    return target;
  }

  public Row source() {
    return source;
  }

  public StructType targetSchema() {
    return targetSchema;
  }

  public StructType sourceSchema() {
    return sourceSchema;
  }

  /** The target row's value of {@code column} (null when there is no target row). */
  public Object target(String column) {
    if (target == null) {
      return null;
    }
    return target.get(index(targetSchema, column, "target"));
  }

  public Object source(String column) {
    return source.get(index(sourceSchema, column, "source"));
  }

  private static int index(StructType schema, String column, String side) {
    int i = schema.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException("MERGE condition refers to " + side + "." + column + ", but the " + side
          + " has no such column; its columns are " + schema.fieldNames());
    }
    return i;
  }
}
