package dev.sluice.table.internal.parquet;

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
 * real column names. Its shape must match {@link AvroSchemas}, field by field.
 */
final class ParquetSchemas {
  private ParquetSchemas() {}

  static MessageType toParquet(StructType schema) {
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (StructField f : schema.fields()) {
      message.addField(type(f.type(), f.name(), f.nullable()));
    }
    return message.named("spark_schema");
  }

  private static Type type(DataType type, String name, boolean nullable) {
    Repetition repetition = nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
    if (type instanceof StructType struct) {
      Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
      for (StructField f : struct.fields()) {
        group.addField(type(f.type(), f.name(), f.nullable()));
      }
      return group.named(name);
    }
    if (type instanceof ArrayType array) {
      GroupType repeated = Types.repeatedGroup()
          .addField(type(array.elementType(), "element", array.containsNull()))
          .named("list");
      return Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType()).addField(repeated).named(name);
    }
    if (type instanceof MapType map) {
      GroupType keyValue = Types.repeatedGroup()
          .addField(type(map.keyType(), "key", false))
          .addField(type(map.valueType(), "value", map.valueContainsNull()))
          .named("key_value");
      return Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType()).addField(keyValue).named(name);
    }
    if (type instanceof DecimalType decimal) {
      return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
          .length(AvroSchemas.fixedLength(decimal.precision()))
          .as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision()))
          .named(name);
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
      case TIMESTAMP_NTZ -> throw new IllegalStateException(
          "timestamp_ntz column '" + name + "' must have been refused by AvroSchemas");
    };
  }
}
