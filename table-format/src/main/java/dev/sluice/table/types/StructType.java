package dev.sluice.table.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** An ordered list of fields: a table schema or a struct column. Field names are unique ignoring case. */
public record StructType(List<StructField> fields) implements DataType {
  public StructType {
    fields = List.copyOf(fields);
    Map<String, String> seen = new HashMap<>();
    for (StructField f : fields) {
      String previous = seen.put(f.name().toLowerCase(Locale.ROOT), f.name());
      if (previous != null) {
        throw new IllegalArgumentException(
            "Column names must be unique ignoring case, but '" + previous + "' and '" + f.name() + "' clash");
      }
    }
  }

  public static StructType of(StructField... fields) {
    return new StructType(List.of(fields));
  }

  /** Starts an empty schema for {@link #add}. */
  public static StructType empty() {
    return new StructType(List.of());
  }

  /** A copy with one more field at the end. */
  public StructType add(String name, DataType type) {
    return add(StructField.of(name, type));
  }

  /** A copy with one more field at the end. */
  public StructType add(StructField field) {
    List<StructField> copy = new ArrayList<>(fields);
    copy.add(field);
    return new StructType(copy);
  }

  @Override
  public String typeName() {
    return "struct";
  }

  public int size() {
    return fields.size();
  }

  public StructField field(int ordinal) {
    return fields.get(ordinal);
  }

  /** Position of the field named {@code name} (exact case first, then ignoring case), or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  public Optional<StructField> field(String name) {
    int i = indexOf(name);
    return i < 0 ? Optional.empty() : Optional.of(fields.get(i));
  }

  public List<String> fieldNames() {
    return fields.stream().map(StructField::name).collect(Collectors.toList());
  }

  /** The schema as Delta's {@code schemaString} JSON. */
  public String toJson() {
    return SchemaJson.toJson(this);
  }

  /**
   * Parses a Spark DDL schema string, {@code "order_id STRING NOT NULL, amount DECIMAL(10,2)"} (Spark's
   * {@code StructType.fromDDL}).
   *
   * @throws IllegalArgumentException naming what is wrong and where
   */
  public static StructType fromDdl(String ddl) {
    return SchemaDdl.parse(ddl);
  }

  /** Parses Delta's {@code schemaString} JSON. */
  public static StructType fromJson(String json) {
    return SchemaJson.parse(json);
  }

  @Override
  public String toString() {
    return fields.stream().map(StructField::toString).collect(Collectors.joining(", ", "struct<", ">"));
  }
}
