package dev.sluice.table.internal.write;

import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that data of one schema may be written to a table of another, and maps input rows onto
 * the table's column order. Columns are matched by name ignoring case. The table may evolve only
 * additively (new nullable columns at the end) and only when the caller asks ({@code mergeSchema}).
 */
public final class SchemaEnforcer {
  private SchemaEnforcer() {}

  /** The table schema to write with, and for each of its columns the input position (-1: write null). */
  public record Plan(StructType tableSchema, int[] inputIndex, boolean evolved) {}

  /**
   * @throws SchemaMismatchException naming the column and both types, or the missing non-nullable column,
   *     or the new column when {@code mergeSchema} is off
   */
  public static Plan plan(StructType table, StructType input, boolean mergeSchema, String tableName) {
    List<StructField> fields = new ArrayList<>(table.fields());
    List<String> added = new ArrayList<>();
    for (StructField in : input.fields()) {
      int t = table.indexOf(in.name());
      if (t < 0) {
        if (!mergeSchema) {
          added.add(in.name() + " " + in.type());
        } else {
          fields.add(new StructField(in.name(), in.type(), true, in.metadata()));
        }
        continue;
      }
      StructField target = table.field(t);
      if (!target.type().equals(in.type())) {
        throw new SchemaMismatchException("Column '" + target.name() + "' of " + tableName + " is " + target.type()
            + " but the data has " + in.type() + ". Cast the column to " + target.type() + " before writing.");
      }
    }
    if (!added.isEmpty()) {
      throw new SchemaMismatchException("The data has columns that " + tableName + " does not have: " + added
          + ". Remove them, or write with mergeSchema to add them as nullable columns.");
    }
    StructType target = new StructType(fields);
    int[] index = new int[target.size()];
    for (int i = 0; i < index.length; i++) {
      StructField f = target.field(i);
      index[i] = input.indexOf(f.name());
      if (index[i] < 0 && !f.nullable()) {
        throw new SchemaMismatchException("Column '" + f.name() + "' of " + tableName + " is not nullable but the"
            + " data does not have it. Add the column to the data.");
      }
    }
    return new Plan(target, index, target.size() != table.size());
  }
}
