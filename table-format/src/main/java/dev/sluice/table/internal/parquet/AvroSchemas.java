package dev.sluice.table.internal.parquet;

import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * Delta schemas as Avro schemas for parquet-avro's write support.
 *
 * <p>Avro names are stricter than Delta's ({@code a-b} and {@code 1col} are valid Delta columns), so
 * field names are sanitised here. That is safe because the writer hands parquet-avro its own Parquet
 * schema ({@link ParquetSchemas}) carrying the real column names, and parquet-avro pairs Avro and
 * Parquet fields by position, not by name.
 */
public final class AvroSchemas {
  private AvroSchemas() {}

  /**
   * The Avro record schema for rows of {@code schema}: nullable fields are unions with null, timestamp
   * is {@code long/timestamp-micros}, date {@code int/date}, decimal a {@code fixed/decimal} of
   * Spark's minimal width, byte and short are {@code int}, binary is {@code bytes}.
   *
   * @throws UnsupportedTableFeatureException for a map whose keys are not strings, or timestamp_ntz
   */
  public static Schema toAvro(StructType schema) {
    return new Builder().record(schema, "sluice_row", "");
  }

  /** The bytes Spark uses for a decimal of this precision: the fewest that hold 10^precision - 1 signed. */
  static int fixedLength(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8.0 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }

  /** A valid Avro name for a Delta column name, e.g. {@code a-b} → {@code a_b}, {@code 1col} → {@code _1col}. */
  static String sanitize(String name) {
    StringBuilder out = new StringBuilder(name.length() + 1);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean valid = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
      if (i == 0 && c >= '0' && c <= '9') {
        out.append('_').append(c);
      } else {
        out.append(valid ? c : '_');
      }
    }
    return out.length() == 0 ? "_" : out.toString();
  }

  private static final class Builder {
    private int records;

    Schema record(StructType struct, String name, String path) {
      List<Schema.Field> fields = new ArrayList<>(struct.size());
      Set<String> used = new HashSet<>();
      for (StructField f : struct.fields()) {
        String column = path.isEmpty() ? f.name() : path + "." + f.name();
        Schema type = nullable(type(f.type(), column), f.nullable());
        fields.add(new Schema.Field(unique(sanitize(f.name()), used), type, null,
            f.nullable() ? JsonProperties.NULL_VALUE : null));
      }
      return Schema.createRecord(name, null, null, false, fields);
    }

    private static String unique(String name, Set<String> used) {
      String candidate = name;
      for (int i = 2; !used.add(candidate); i++) {
        candidate = name + "_" + i;
      }
      return candidate;
    }

    private static Schema nullable(Schema type, boolean nullable) {
      return nullable ? Schema.createUnion(Schema.create(Schema.Type.NULL), type) : type;
    }

    private Schema type(DataType type, String column) {
      if (type instanceof StructType struct) {
        return record(struct, "struct_" + (++records), column);
      }
      if (type instanceof ArrayType array) {
        return Schema.createArray(nullable(type(array.elementType(), column + ".element"), array.containsNull()));
      }
      if (type instanceof MapType map) {
        if (map.keyType() != PrimitiveType.STRING) {
          throw new UnsupportedTableFeatureException("Column '" + column + "' is " + map
              + ": Sluice writes maps with string keys only, because Avro maps (used to write Parquet) "
              + "cannot have other keys. Use map<string,...> or an array of key/value structs.");
        }
        return Schema.createMap(nullable(type(map.valueType(), column + ".value"), map.valueContainsNull()));
      }
      if (type instanceof DecimalType decimal) {
        Schema fixed = Schema.createFixed(
            "decimal_" + decimal.precision() + "_" + decimal.scale(), null, null, fixedLength(decimal.precision()));
        return LogicalTypes.decimal(decimal.precision(), decimal.scale()).addToSchema(fixed);
      }
      return primitive((PrimitiveType) type, column);
    }

    private static Schema primitive(PrimitiveType type, String column) {
      return switch (type) {
        case STRING -> Schema.create(Schema.Type.STRING);
        case LONG -> Schema.create(Schema.Type.LONG);
        case INTEGER, SHORT, BYTE -> Schema.create(Schema.Type.INT);
        case DOUBLE -> Schema.create(Schema.Type.DOUBLE);
        case FLOAT -> Schema.create(Schema.Type.FLOAT);
        case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
        case BINARY -> Schema.create(Schema.Type.BYTES);
        case DATE -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
        case TIMESTAMP -> LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
        case TIMESTAMP_NTZ -> throw new UnsupportedTableFeatureException("Column '" + column
            + "' is timestamp_ntz, which needs the timestampNtz table feature that Sluice does not "
            + "implement. Use a timestamp column (UTC instants) instead.");
      };
    }
  }
}
