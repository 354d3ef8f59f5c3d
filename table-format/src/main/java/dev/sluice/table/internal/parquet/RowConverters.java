package dev.sluice.table.internal.parquet;

import dev.sluice.table.data.Row;
import dev.sluice.table.exceptions.SchemaMismatchException;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Parquet converters that build {@link Row}s of a read schema directly from a (clipped) file schema.
 * Each converter hands its finished value to a sink set by its parent; a value that never arrives
 * is null, which is how Parquet encodes nulls (the converter is simply not called).
 */
final class RowConverters {
  private RowConverters() {}

  /** Materializes one {@link Row} per Parquet record. */
  static final class RowMaterializer extends RecordMaterializer<Row> {
    private final StructConverter root;
    private Row current;

    RowMaterializer(StructType want, MessageType clipped, String file) {
      this.root = new StructConverter(want, clipped, v -> current = (Row) v, file, "");
    }

    @Override
    public Row getCurrentRecord() {
      return current;
    }

    @Override
    public GroupConverter getRootConverter() {
      return root;
    }
  }

  static Converter converter(DataType want, Type file, Consumer<Object> sink, String path, String column) {
    if (file.isPrimitive()) {
      if (file.isRepetition(Type.Repetition.REPEATED)) {
        throw mismatch(path, column, want, file, "a bare repeated field (a 1-level list) is not supported");
      }
      return PrimitiveConverters.of(want, file.asPrimitiveType(), sink, path, column);
    }
    GroupType group = file.asGroupType();
    if (want instanceof StructType struct) {
      return new StructConverter(struct, group, sink, path, column);
    }
    if (want instanceof ArrayType array && ParquetProjection.isList(group)) {
      return new ListConverter(array, group, sink, path, column);
    }
    if (want instanceof MapType map && ParquetProjection.isMap(group)) {
      return new MapConverter(map, group, sink, path, column);
    }
    throw mismatch(path, column, want, file, "the shapes differ");
  }

  static SchemaMismatchException mismatch(String path, String column, DataType want, Type file, String why) {
    return new SchemaMismatchException("Column '" + column + "' of " + path + " is stored as '" + file
        + "', which cannot be read as " + want + " (" + why + "). Read it with a matching type, or rewrite the file.");
  }

  private static String child(String column, String name) {
    return column.isEmpty() ? name : column + "." + name;
  }

  private static final class StructConverter extends GroupConverter {
    private final int width;
    private final Converter[] children;
    private final Consumer<Object> sink;
    private Object[] values;

    StructConverter(StructType want, GroupType file, Consumer<Object> sink, String path, String column) {
      this.width = want.size();
      this.sink = sink;
      this.children = new Converter[file.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type field = file.getType(i);
        StructField wanted = ParquetProjection.match(want, field.getName());
        if (wanted == null) {
          children[i] = Skipping.of(field);
        } else {
          int ordinal = want.indexOf(wanted.name());
          children[i] = converter(wanted.type(), field, v -> values[ordinal] = v, path, child(column, wanted.name()));
        }
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {
      values = new Object[width];
    }

    @Override
    public void end() {
      sink.accept(Row.of(values));
    }
  }

  private static final class ListConverter extends GroupConverter {
    private final Consumer<Object> sink;
    private final Converter repeated;
    private List<Object> list;

    ListConverter(ArrayType want, GroupType file, Consumer<Object> sink, String path, String column) {
      this.sink = sink;
      Type repeatedType = file.getType(0);
      String elementColumn = column + ".element";
      if (ParquetProjection.repeatedIsElement(repeatedType, file.getName(), want.elementType())) {
        this.repeated = elementConverter(want.elementType(), repeatedType, v -> list.add(v), path, elementColumn);
      } else {
        this.repeated = new ElementConverter(want.elementType(), repeatedType.asGroupType(), v -> list.add(v), path, elementColumn);
      }
    }

    /** A 2-level list's repeated field is the element; converters reject REPEATED, so look through it. */
    private static Converter elementConverter(DataType want, Type repeated, Consumer<Object> sink, String path, String column) {
      if (repeated.isPrimitive()) {
        return PrimitiveConverters.of(want, repeated.asPrimitiveType(), sink, path, column);
      }
      return converter(want, repeated, sink, path, column);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return repeated;
    }

    @Override
    public void start() {
      list = new ArrayList<>();
    }

    @Override
    public void end() {
      sink.accept(list);
    }
  }

  /** The middle group of a 3-level list: one per element, so a missing element value is a null element. */
  private static final class ElementConverter extends GroupConverter {
    private final Consumer<Object> sink;
    private final Converter element;
    private Object value;

    ElementConverter(DataType want, GroupType middle, Consumer<Object> sink, String path, String column) {
      this.sink = sink;
      this.element = converter(want, middle.getType(0), v -> value = v, path, column);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return element;
    }

    @Override
    public void start() {
      value = null;
    }

    @Override
    public void end() {
      sink.accept(value);
    }
  }

  private static final class MapConverter extends GroupConverter {
    private final Consumer<Object> sink;
    private final KeyValueConverter entries;
    private Map<Object, Object> map;

    MapConverter(MapType want, GroupType file, Consumer<Object> sink, String path, String column) {
      this.sink = sink;
      this.entries = new KeyValueConverter(want, file.getType(0).asGroupType(), this, path, column);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return entries;
    }

    @Override
    public void start() {
      map = new LinkedHashMap<>();
    }

    @Override
    public void end() {
      sink.accept(map);
    }
  }

  private static final class KeyValueConverter extends GroupConverter {
    private final MapConverter parent;
    private final Converter[] children;
    private Object key;
    private Object value;

    KeyValueConverter(MapType want, GroupType keyValue, MapConverter parent, String path, String column) {
      this.parent = parent;
      this.children = new Converter[keyValue.getFieldCount()];
      children[0] = converter(want.keyType(), keyValue.getType(0), v -> key = v, path, column + ".key");
      if (children.length > 1) {
        children[1] = converter(want.valueType(), keyValue.getType(1), v -> value = v, path, column + ".value");
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {
      key = null;
      value = null;
    }

    @Override
    public void end() {
      parent.map.put(key, value);
    }
  }

  /** Converters for file columns the read schema does not want (kept only to learn a struct's nullness). */
  private static final class Skipping {
    private Skipping() {}

    static Converter of(Type type) {
      if (type.isPrimitive()) {
        return new PrimitiveConverter() {
          @Override
          public void addBinary(org.apache.parquet.io.api.Binary value) {}

          @Override
          public void addBoolean(boolean value) {}

          @Override
          public void addDouble(double value) {}

          @Override
          public void addFloat(float value) {}

          @Override
          public void addInt(int value) {}

          @Override
          public void addLong(long value) {}
        };
      }
      GroupType group = type.asGroupType();
      Converter[] children = new Converter[group.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        children[i] = of(group.getType(i));
      }
      return new GroupConverter() {
        @Override
        public Converter getConverter(int fieldIndex) {
          return children[fieldIndex];
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
      };
    }
  }
}
