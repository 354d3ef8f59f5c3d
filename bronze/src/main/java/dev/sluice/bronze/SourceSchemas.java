package dev.sluice.bronze;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ColumnSpec;
import dev.sluice.table.types.StructType;
import java.util.List;

/** Turns a config's declared columns into the schema the files source reads with. */
final class SourceSchemas {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SourceSchemas() {}

  /**
   * The declared columns as a schema. Every column is nullable in bronze whatever the config says: bronze keeps
   * raw data as it came, and a missing value is a rule for silver's expectations, not a reason to lose the row.
   *
   * @throws IllegalArgumentException naming a column that bronze or the source adds itself, or a bad type
   */
  static StructType of(String pipeline, List<ColumnSpec> columns) {
    ObjectNode schema = MAPPER.createObjectNode().put("type", "struct");
    ArrayNode fields = schema.putArray("fields");
    for (ColumnSpec c : columns) {
      checkName(pipeline, c.name());
      fields.addObject().put("name", c.name()).put("type", c.type()).put("nullable", true).putObject("metadata");
    }
    try {
      return StructType.fromJson(schema.toString());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Pipeline '" + pipeline + "': source.schema has a type bronze cannot read ("
          + e.getMessage() + "); use a Delta type name such as string, long, double, timestamp or decimal(10,2)", e);
    }
  }

  /**
   * @throws IllegalArgumentException when a data column has a name bronze or the files source adds itself
   */
  static void checkName(String pipeline, String column) {
    for (String reserved : BronzeColumns.RESERVED) {
      if (reserved.equalsIgnoreCase(column)) {
        throw new IllegalArgumentException("Pipeline '" + pipeline + "': the source has a column named '" + column
            + "', which bronze adds itself; rename the field in the input or in source.schema");
      }
    }
  }
}
