package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Turns {@link Row}s into Avro records for parquet-avro, checking every value against its column type.
 * The top-level record is reused for every row (parquet-avro consumes it before the next call);
 * nested records are new, because a list may hold several of them at once.
 */
final class AvroRowConverter {
  /** Converts one non-null value of a column to its Avro form. */
  private interface ValueConverter {
    Object convert(Object value);
  }

  private final StructType schema;
  private final ValueConverter[] fields;
  private final GenericData.Record record;

  AvroRowConverter(StructType schema, Schema avroSchema) {
    this.schema = schema;
    this.fields = fieldConverters(schema, avroSchema, "");
    this.record = new GenericData.Record(avroSchema);
  }

  /** The reused record holding {@code row}'s values; valid until the next call. */
  GenericData.Record toRecord(Row row) {
    fill(record, row, schema, fields, "");
    return record;
  }

  private static void fill(GenericData.Record target, Row row, StructType type, ValueConverter[] converters, String path) {
    if (row.size() != converters.length) {
      throw new SchemaMismatchException("A row for " + (path.isEmpty() ? "the table" : "struct column '" + path + "'")
          + " has " + row.size() + " values, but the schema " + type + " has " + converters.length
          + " columns. Build rows with one value per column, in schema order.");
    }
    for (int i = 0; i < converters.length; i++) {
      Object value = row.get(i);
      if (value == null) {
        StructField field = type.field(i);
        if (!field.nullable()) {
          throw new SchemaMismatchException("Column '" + qualified(path, field.name())
              + "' is not nullable, but a row holds null for it. Supply a value or make the column nullable.");
        }
        target.put(i, null);
      } else {
        target.put(i, converters[i].convert(value));
      }
    }
  }

  private static String qualified(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static ValueConverter[] fieldConverters(StructType struct, Schema avroRecord, String path) {
    ValueConverter[] out = new ValueConverter[struct.size()];
    for (int i = 0; i < out.length; i++) {
      StructField f = struct.field(i);
      out[i] = converter(f.type(), nonNull(avroRecord.getFields().get(i).schema()), qualified(path, f.name()));
    }
    return out;
  }

  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        return branch;
      }
    }
    throw new IllegalStateException("Union without a non-null branch: " + schema);
  }

  private static ValueConverter converter(DataType type, Schema avro, String column) {
    if (type instanceof StructType struct) {
      ValueConverter[] children = fieldConverters(struct, avro, column);
      return v -> {
        GenericData.Record nested = new GenericData.Record(avro);
        fill(nested, expect(v, Row.class, type, column), struct, children, column);
        return nested;
      };
    }
    if (type instanceof ArrayType array) {
      return list(array, avro, column);
    }
    if (type instanceof MapType map) {
      return map(map, avro, column);
    }
    if (type instanceof DecimalType decimal) {
      return decimal(decimal, avro, column);
    }
    return switch ((PrimitiveType) type) {
      case STRING -> v -> expect(v, String.class, type, column);
      case LONG -> v -> expect(v, Long.class, type, column);
      case INTEGER -> v -> expect(v, Integer.class, type, column);
      case SHORT -> v -> expect(v, Short.class, type, column);
      case BYTE -> v -> expect(v, Byte.class, type, column);
      case DOUBLE -> v -> expect(v, Double.class, type, column);
      case FLOAT -> v -> expect(v, Float.class, type, column);
      case BOOLEAN -> v -> expect(v, Boolean.class, type, column);
      case BINARY -> v -> expect(v, byte[].class, type, column);
      case DATE -> v -> (int) expect(v, LocalDate.class, type, column).toEpochDay();
      case TIMESTAMP -> v -> micros(expect(v, Instant.class, type, column));
      case TIMESTAMP_NTZ -> throw new IllegalStateException("timestamp_ntz is refused by AvroSchemas");
    };
  }

  /** Microseconds since the epoch; sub-microsecond digits are dropped (floor), as Spark does. */
  static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static ValueConverter list(ArrayType array, Schema avro, String column) {
    String elementColumn = column + ".element";
    ValueConverter element = converter(array.elementType(), nonNull(avro.getElementType()), elementColumn);
    return v -> {
      List<?> in = expect(v, List.class, array, column);
      List<Object> out = new ArrayList<>(in.size());
      for (Object e : in) {
        if (e == null && !array.containsNull()) {
          throw new SchemaMismatchException("Column '" + column + "' is " + array
              + " without nulls, but a list holds null. Remove the null or allow null elements.");
        }
        out.add(e == null ? null : element.convert(e));
      }
      return out;
    };
  }

  private static ValueConverter map(MapType map, Schema avro, String column) {
    ValueConverter value = converter(map.valueType(), nonNull(avro.getValueType()), column + ".value");
    return v -> {
      Map<?, ?> in = expect(v, Map.class, map, column);
      Map<String, Object> out = new LinkedHashMap<>(Math.max(4, in.size() * 2));
      for (Map.Entry<?, ?> e : in.entrySet()) {
        String key = expect(e.getKey(), String.class, PrimitiveType.STRING, column + ".key");
        Object val = e.getValue();
        if (val == null && !map.valueContainsNull()) {
          throw new SchemaMismatchException("Column '" + column + "' is " + map
              + " without null values, but key '" + key + "' maps to null. Remove it or allow null values.");
        }
        out.put(key, val == null ? null : value.convert(val));
      }
      return out;
    };
  }

  private static ValueConverter decimal(DecimalType type, Schema avro, String column) {
    int length = avro.getFixedSize();
    return v -> {
      BigDecimal in = expect(v, BigDecimal.class, type, column);
      BigDecimal scaled;
      try {
        scaled = in.setScale(type.scale(), RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        throw new SchemaMismatchException("Column '" + column + "' is " + type + ", but " + in.toPlainString()
            + " has more than " + type.scale() + " fractional digits. Round the value before writing.");
      }
      if (scaled.precision() > type.precision()) {
        throw new SchemaMismatchException("Column '" + column + "' is " + type + ", but " + in.toPlainString()
            + " has more than " + type.precision() + " digits. Widen the column or check the value.");
      }
      return new GenericData.Fixed(avro, signExtended(scaled.unscaledValue().toByteArray(), length));
    };
  }

  /** Big-endian two's complement of exactly {@code length} bytes, as Parquet's fixed decimals are. */
  static byte[] signExtended(byte[] minimal, int length) {
    if (minimal.length == length) {
      return minimal;
    }
    byte[] out = new byte[length];
    byte pad = (byte) (minimal[0] < 0 ? -1 : 0);
    int offset = length - minimal.length;
    for (int i = 0; i < offset; i++) {
      out[i] = pad;
    }
    System.arraycopy(minimal, 0, out, offset, minimal.length);
    return out;
  }

  private static <T> T expect(Object value, Class<T> javaType, DataType type, String column) {
    if (!javaType.isInstance(value)) {
      throw new SchemaMismatchException("Column '" + column + "' is " + type + " and needs a "
          + javaType.getSimpleName() + ", but the row holds a " + value.getClass().getName() + " (" + value
          + "). Convert the value to the column's Java type (see DataType).");
    }
    return javaType.cast(value);
  }
}
