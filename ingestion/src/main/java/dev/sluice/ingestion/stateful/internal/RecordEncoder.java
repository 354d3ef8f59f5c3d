package dev.sluice.ingestion.stateful.internal;

import dev.sluice.ingestion.stateful.Encoder;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Java record as a struct of its components. A component missing from a row (null) becomes the Java
 * default for a primitive, so that a state value written before a field was added still reads.
 */
public final class RecordEncoder<R extends Record> implements Encoder<R> {
  private static final Map<Class<?>, PrimitiveType> PRIMITIVES = Map.ofEntries(
      Map.entry(String.class, PrimitiveType.STRING), Map.entry(long.class, PrimitiveType.LONG),
      Map.entry(Long.class, PrimitiveType.LONG), Map.entry(int.class, PrimitiveType.INTEGER),
      Map.entry(Integer.class, PrimitiveType.INTEGER), Map.entry(short.class, PrimitiveType.SHORT),
      Map.entry(Short.class, PrimitiveType.SHORT), Map.entry(byte.class, PrimitiveType.BYTE),
      Map.entry(Byte.class, PrimitiveType.BYTE), Map.entry(double.class, PrimitiveType.DOUBLE),
      Map.entry(Double.class, PrimitiveType.DOUBLE), Map.entry(float.class, PrimitiveType.FLOAT),
      Map.entry(Float.class, PrimitiveType.FLOAT), Map.entry(boolean.class, PrimitiveType.BOOLEAN),
      Map.entry(Boolean.class, PrimitiveType.BOOLEAN), Map.entry(byte[].class, PrimitiveType.BINARY),
      Map.entry(Instant.class, PrimitiveType.TIMESTAMP), Map.entry(LocalDate.class, PrimitiveType.DATE));

  private final Class<R> type;
  private final StructType schema;
  private final RecordComponent[] components;
  private final Constructor<R> constructor;
  private final Converter[] converters;
  private final java.lang.reflect.Method[] accessors;

  /** Converts one component between its Java value and its column value. */
  private interface Converter {
    Object toColumn(Object javaValue);

    Object toJava(Object columnValue);
  }

  private static final Converter SAME = new Converter() {
    @Override
    public Object toColumn(Object javaValue) {
      return javaValue;
    }

    @Override
    public Object toJava(Object columnValue) {
      return columnValue;
    }
  };

  private RecordEncoder(Class<R> type) {
    this.type = type;
    this.components = type.getRecordComponents();
    List<StructField> fields = new ArrayList<>();
    this.converters = new Converter[components.length];
    this.accessors = new java.lang.reflect.Method[components.length];
    Class<?>[] parameterTypes = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent c = components[i];
      parameterTypes[i] = c.getType();
      String path = type.getName() + "." + c.getName();
      fields.add(StructField.of(c.getName(), columnType(c.getGenericType(), path), !c.getType().isPrimitive()));
      converters[i] = converter(c.getGenericType());
      accessors[i] = c.getAccessor();
      // Records declared inside a user's class are often not public.
      accessors[i].setAccessible(true);
    }
    this.schema = new StructType(fields);
    try {
      this.constructor = type.getDeclaredConstructor(parameterTypes);
      this.constructor.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("Record " + type.getName() + " has no canonical constructor", e);
    }
  }

  /**
   * @throws IllegalArgumentException naming the component whose type has no column type
   */
  public static <R extends Record> RecordEncoder<R> of(Class<R> type) {
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a Java record; declare the state or output type"
          + " as a record, or use Encoders.row(schema)");
    }
    return new RecordEncoder<>(type);
  }

  private static DataType columnType(Type javaType, String path) {
    if (javaType instanceof Class<?> c) {
      PrimitiveType p = PRIMITIVES.get(c);
      if (p != null) {
        return p;
      }
      if (c == BigDecimal.class) {
        return DecimalType.of(38, 18);
      }
      if (c.isRecord()) {
        return of(c.asSubclass(Record.class)).schema();
      }
    }
    if (javaType instanceof ParameterizedType pt && pt.getRawType() == List.class) {
      return new ArrayType(columnType(pt.getActualTypeArguments()[0], path + "[]"), true);
    }
    throw new IllegalArgumentException("Record component " + path + " has type " + javaType.getTypeName()
        + ", which has no column type; use String, long, int, short, byte, double, float, boolean, byte[], Instant,"
        + " LocalDate, BigDecimal, a record or a List of these");
  }

  private static Converter converter(Type javaType) {
    if (javaType instanceof Class<?> c && c.isRecord()) {
      RecordEncoder<?> nested = of(c.asSubclass(Record.class));
      return new Converter() {
        @Override
        public Object toColumn(Object javaValue) {
          return javaValue == null ? null : nested.encode(javaValue);
        }

        @Override
        public Object toJava(Object columnValue) {
          return columnValue == null ? null : nested.fromRow((Row) columnValue);
        }
      };
    }
    if (javaType instanceof ParameterizedType pt && pt.getRawType() == List.class) {
      Converter element = converter(pt.getActualTypeArguments()[0]);
      if (element == SAME) {
        return SAME;
      }
      return new Converter() {
        @Override
        public Object toColumn(Object javaValue) {
          return javaValue == null ? null : ((List<?>) javaValue).stream().map(element::toColumn).toList();
        }

        @Override
        public Object toJava(Object columnValue) {
          return columnValue == null ? null : ((List<?>) columnValue).stream().map(element::toJava).toList();
        }
      };
    }
    return SAME;
  }

  private Row encode(Object value) {
    return toRow(type.cast(value));
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Row toRow(R value) {
    Object[] out = new Object[components.length];
    try {
      for (int i = 0; i < out.length; i++) {
        out[i] = converters[i].toColumn(accessors[i].invoke(value));
      }
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Reading record " + type.getName() + " failed: " + e, e);
    }
    return Row.of(out);
  }

  @Override
  public R fromRow(Row row) {
    Object[] args = new Object[components.length];
    for (int i = 0; i < args.length; i++) {
      Object v = converters[i].toJava(row.get(i));
      args[i] = v == null && components[i].getType().isPrimitive() ? defaultOf(components[i].getType()) : v;
    }
    try {
      return constructor.newInstance(args);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new IllegalStateException("Creating record " + type.getName() + " from state failed: " + cause, cause);
    }
  }

  private static Object defaultOf(Class<?> primitive) {
    return java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(primitive, 1), 0);
  }

  @Override
  public String typeName() {
    return type.getName();
  }
}
