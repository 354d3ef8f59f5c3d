package dev.sluice.table.internal.parquet;

import dev.sluice.table.exceptions.UnsupportedTableFeatureException;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet schema Sluice writes for a Delta schema: Spark's standard layout (3-level lists named
 * {@code list/element}, maps as {@code key_value/key/value}, INT64 TIMESTAMP(MICROS, UTC)) with the
 * real column names. {@link ValueWriters} writes values in this layout.
 */
final class ParquetSchemas {
  private ParquetSchemas() {}

  /**
   * The Parquet schema of data files for rows of {@code schema}.
   *
   * @throws UnsupportedTableFeatureException for a map whose keys are not strings, or timestamp_ntz
   */
  static MessageType toParquet(StructType schema) {
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (StructField f : schema.fields()) {
      message.addField(type(f.type(), f.name(), f.nullable(), f.name()));
    }
    return message.named("spark_schema");
  }

  /**
   * How a decimal's unscaled value is stored: INT32 up to 9 digits, INT64 up to 18, FIXED_LEN_BYTE_ARRAY beyond
   * (what Spark writes by default and the Parquet format recommends). Numbers are cheaper to write, to compute
   * statistics of and to read than big-endian byte arrays; readers take all three layouts.
   */
  static PrimitiveTypeName decimalLayout(DecimalType decimal) {
    if (decimal.precision() <= 9) {
      return PrimitiveTypeName.INT32;
    }
    return decimal.precision() <= 18 ? PrimitiveTypeName.INT64 : PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
  }

  /** The bytes Spark uses for a decimal of this precision: the fewest that hold 10^precision - 1 signed. */
  static int fixedLength(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8.0 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }

  private static Type type(DataType type, String name, boolean nullable, String column) {
    Repetition repetition = nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
    if (type instanceof StructType struct) {
      Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
      for (StructField f : struct.fields()) {
        group.addField(type(f.type(), f.name(), f.nullable(), column + "." + f.name()));
      }
      return group.named(name);
    }
    if (type instanceof ArrayType array) {
      GroupType repeated = Types.repeatedGroup()
          .addField(type(array.elementType(), "element", array.containsNull(), column + ".element"))
          .named("list");
      return Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType()).addField(repeated).named(name);
    }
    if (type instanceof MapType map) {
      if (map.keyType() != PrimitiveType.STRING) {
        // Kept from the parquet-avro writer (Avro maps have string keys); other keys would need their own
        // value checks and Kernel interop tests before being allowed.
        throw new UnsupportedTableFeatureException("Column '" + column + "' is " + map
            + ": Sluice writes maps with string keys only. Use map<string,...> or an array of key/value structs.");
      }
      GroupType keyValue = Types.repeatedGroup()
          .addField(type(map.keyType(), "key", false, column + ".key"))
          .addField(type(map.valueType(), "value", map.valueContainsNull(), column + ".value"))
          .named("key_value");
      return Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType()).addField(keyValue).named(name);
    }
    if (type instanceof DecimalType decimal) {
      // Spark's (non-legacy) layout: the unscaled value as INT32 up to 9 digits, INT64 up to 18, else fixed bytes.
      Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> physical = switch (decimalLayout(decimal)) {
        case INT32 -> Types.primitive(PrimitiveTypeName.INT32, repetition);
        case INT64 -> Types.primitive(PrimitiveTypeName.INT64, repetition);
        default -> Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
            .length(fixedLength(decimal.precision()));
      };
      return physical.as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision())).named(name);
    }
    return switch ((PrimitiveType) type) {
      case STRING -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
          .as(LogicalTypeAnnotation.stringType()).named(name);
      case LONG -> Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
      case INTEGER -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
      case SHORT -> Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.intType(16, true)).named(name);
      case BYTE -> Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.intType(8, true)).named(name);
      case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
      case FLOAT -> Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
      case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
      case BINARY -> Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
      case DATE -> Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.dateType()).named(name);
      case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, repetition)
          .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS)).named(name);
      case TIMESTAMP_NTZ -> throw new UnsupportedTableFeatureException("Column '" + column
          + "' is timestamp_ntz, which needs the timestampNtz table feature that Sluice does not "
          + "implement. Use a timestamp column (UTC instants) instead.");
    };
  }
}
