package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.table.data.Row;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts parsed JSON to the Java values of a schema. A value that does not fit its column becomes
 * null and adds an error naming the field (dotted path for nested fields); the other fields are
 * still filled. Fields the schema lacks are ignored; fields the JSON lacks are null. With a {@link RescuedData}
 * (option {@code rescuedDataColumn}), fields the schema lacks, at any depth, are kept there, and so are values
 * that don't fit when it rescues type mismatches (then they add no error).
 */
final class JsonValues {
  private JsonValues() {}

  /** The values of {@code schema}'s fields; {@code rescued} is null when the source doesn't rescue data. */
  static Object[] struct(JsonNode object, StructType schema, String prefix, List<String> errors, RescuedData rescued) {
    Object[] values = new Object[schema.size()];
    java.util.Set<String> used = rescued == null ? null : new java.util.HashSet<>();
    for (int i = 0; i < values.length; i++) {
      StructField f = schema.field(i);
      String name = object.has(f.name()) ? f.name() : ignoringCase(object, f.name());
      if (name == null) {
        continue;
      }
      if (used != null) {
        used.add(name);
      }
      values[i] = value(object.get(name), f.type(), prefix + f.name(), errors, rescued);
    }
    if (rescued != null) {
      for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!used.contains(e.getKey())) {
          rescued.unknown(prefix + e.getKey(), e.getValue());
        }
      }
    }
    return values;
  }

  /** The JSON object's field name equal to {@code name} ignoring case, or null. */
  private static String ignoringCase(JsonNode object, String name) {
    for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
      String n = it.next();
      if (n.equalsIgnoreCase(name)) {
        return n;
      }
    }
    return null;
  }

  private static Object value(JsonNode node, DataType type, String field, List<String> errors, RescuedData rescued) {
    if (node == null || node.isNull()) {
      return null;
    }
    try {
      return convert(node, type, field, errors, rescued);
    } catch (TextValues.BadValue e) {
      if (rescued == null || !rescued.mismatch(field, node)) {
        errors.add(e.getMessage());
      }
      return null;
    }
  }

  private static Object convert(JsonNode node, DataType type, String field, List<String> errors, RescuedData rescued)
      throws TextValues.BadValue {
    if (type instanceof StructType s) {
      requireThat(node.isObject(), node, type, field);
      return Row.of(struct(node, s, field + ".", errors, rescued));
    }
    if (type instanceof ArrayType a) {
      requireThat(node.isArray(), node, type, field);
      List<Object> out = new ArrayList<>(node.size());
      for (int i = 0; i < node.size(); i++) {
        out.add(value(node.get(i), a.elementType(), field + "[" + i + "]", errors, rescued));
      }
      return out;
    }
    if (type instanceof MapType m) {
      requireThat(node.isObject(), node, type, field);
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String path = field + "." + e.getKey();
        out.put(TextValues.parse(e.getKey(), m.keyType(), path), value(e.getValue(), m.valueType(), path, errors, rescued));
      }
      return out;
    }
    if (type instanceof DecimalType d) {
      if (node.isNumber()) {
        return TextValues.decimal(node.decimalValue(), d, field);
      }
      requireThat(node.isTextual(), node, type, field);
      return TextValues.parse(node.textValue(), type, field);
    }
    return primitive(node, (PrimitiveType) type, field);
  }

  private static Object primitive(JsonNode node, PrimitiveType type, String field) throws TextValues.BadValue {
    switch (type) {
      case STRING:
        return node.isTextual() ? node.textValue() : node.toString();
      case LONG:
        requireThat(node.isIntegralNumber() && node.canConvertToLong(), node, type, field);
        return node.longValue();
      case INTEGER:
        requireThat(node.isIntegralNumber() && node.canConvertToInt(), node, type, field);
        return node.intValue();
      case SHORT:
        requireThat(node.isIntegralNumber() && node.canConvertToInt() && node.intValue() == (short) node.intValue(), node, type, field);
        return (short) node.intValue();
      case BYTE:
        requireThat(node.isIntegralNumber() && node.canConvertToInt() && node.intValue() == (byte) node.intValue(), node, type, field);
        return (byte) node.intValue();
      case DOUBLE:
      case FLOAT:
        if (node.isNumber()) {
          return type == PrimitiveType.DOUBLE ? (Object) node.doubleValue() : (Object) node.floatValue();
        }
        requireThat(node.isTextual(), node, type, field);
        return TextValues.parse(node.textValue(), type, field);
      case BOOLEAN:
        requireThat(node.isBoolean(), node, type, field);
        return node.booleanValue();
      case TIMESTAMP:
        if (node.isIntegralNumber() && node.canConvertToLong()) {
          return TextValues.epochSeconds(node.longValue(), field); // Spark reads a JSON number as epoch seconds
        }
        requireThat(node.isTextual(), node, type, field);
        return TextValues.parse(node.textValue(), type, field);
      default:
        requireThat(node.isTextual(), node, type, field);
        return TextValues.parse(node.textValue(), type, field);
    }
  }

  private static void requireThat(boolean ok, JsonNode node, DataType type, String field) throws TextValues.BadValue {
    if (!ok) {
      throw new TextValues.BadValue(field, type, node.toString(), "");
    }
  }
}
