package dev.sluice.table.interop;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts one value of a Kernel column vector into Sluice's Java mapping (struct as a list). */
final class KernelValues {

  private KernelValues() {}

  static Object value(ColumnVector vector, int rowId) {
    if (vector.isNullAt(rowId)) {
      return null;
    }
    DataType type = vector.getDataType();
    Object primitive = primitive(type, vector, rowId);
    if (primitive != null) {
      return primitive;
    }
    if (type instanceof StructType struct) {
      List<Object> fields = new ArrayList<>(struct.length());
      for (int i = 0; i < struct.length(); i++) {
        fields.add(value(vector.getChild(i), rowId));
      }
      return fields;
    }
    if (type instanceof ArrayType) {
      return list(vector.getArray(rowId));
    }
    if (type instanceof MapType) {
      return map(vector.getMap(rowId));
    }
    // timestamp_ntz and variant have no Sluice mapping; guessing one would hide a mismatch.
    throw new IllegalArgumentException(
        "Column type " + type + " has no Java mapping in Sluice (see dev.sluice.table.types.DataType), "
            + "so the interop reader cannot compare it; read a table without this type.");
  }

  private static Object primitive(DataType type, ColumnVector vector, int rowId) {
    if (type instanceof StringType) {
      return vector.getString(rowId);
    } else if (type instanceof LongType) {
      return vector.getLong(rowId);
    } else if (type instanceof IntegerType) {
      return vector.getInt(rowId);
    } else if (type instanceof ShortType) {
      return vector.getShort(rowId);
    } else if (type instanceof ByteType) {
      return vector.getByte(rowId);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(rowId);
    } else if (type instanceof FloatType) {
      return vector.getFloat(rowId);
    } else if (type instanceof BooleanType) {
      return vector.getBoolean(rowId);
    } else if (type instanceof BinaryType) {
      return vector.getBinary(rowId);
    } else if (type instanceof DateType) {
      return LocalDate.ofEpochDay(vector.getInt(rowId));
    } else if (type instanceof TimestampType) {
      return instantOfMicros(vector.getLong(rowId));
    } else if (type instanceof DecimalType) {
      return vector.getDecimal(rowId);
    }
    return null;
  }

  static Instant instantOfMicros(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  private static List<Object> list(ArrayValue array) {
    ColumnVector elements = array.getElements();
    List<Object> out = new ArrayList<>(array.getSize());
    for (int i = 0; i < array.getSize(); i++) {
      out.add(value(elements, i));
    }
    return out;
  }

  private static Map<Object, Object> map(MapValue map) {
    ColumnVector keys = map.getKeys();
    ColumnVector values = map.getValues();
    Map<Object, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < map.getSize(); i++) {
      out.put(value(keys, i), value(values, i));
    }
    return out;
  }
}
