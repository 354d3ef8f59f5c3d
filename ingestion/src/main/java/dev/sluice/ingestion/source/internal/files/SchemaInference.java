package dev.sluice.ingestion.source.internal.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.ingestion.source.internal.files.FileSourceOptions.CsvOptions;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Infers a schema from sample lines: long, double, boolean, timestamp (ISO text with a time part),
 * string; JSON objects become structs and arrays arrays. Conflicting types widen (long + double =
 * double) or fall back to string; a column only ever null is a string. Lines that cannot be parsed
 * are skipped here (they become corrupt rows when read).
 */
final class SchemaInference {
  private SchemaInference() {}

  static StructType json(List<String> lines) {
    Map<String, DataType> fields = new LinkedHashMap<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = JsonLineParser.MAPPER.readTree(line);
        if (node.isObject()) {
          mergeFields(fields, node);
        }
      } catch (JsonProcessingException e) {
        // a malformed line says nothing about the schema
      }
    }
    return finish(fields);
  }

  static StructType csv(List<String> lines, CsvOptions options) {
    List<String> names = new ArrayList<>();
    List<DataType> types = new ArrayList<>();
    boolean first = true;
    for (String line : lines) {
      if (line.isEmpty()) {
        continue;
      }
      List<CsvLineParser.Field> fields;
      try {
        fields = CsvLineParser.split(line, options);
      } catch (Exception e) {
        continue;
      }
      if (first && options.header()) {
        fields.forEach(f -> names.add(f.text()));
        first = false;
        continue;
      }
      first = false;
      for (int i = 0; i < fields.size(); i++) {
        if (i >= types.size()) {
          types.add(null);
        }
        CsvLineParser.Field f = fields.get(i);
        DataType t = !f.quoted() && f.text().equals(options.nullValue()) ? null : ofText(f.text());
        types.set(i, merge(types.get(i), t));
      }
    }
    Map<String, DataType> out = new LinkedHashMap<>();
    for (int i = 0; i < Math.max(names.size(), types.size()); i++) {
      String name = i < names.size() && !names.get(i).isEmpty() ? names.get(i) : "_c" + i;
      out.put(name, i < types.size() ? types.get(i) : null);
    }
    return finish(out);
  }

  private static void mergeFields(Map<String, DataType> fields, JsonNode object) {
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      fields.put(e.getKey(), merge(fields.get(e.getKey()), ofJson(e.getValue())));
    }
  }

  private static DataType ofJson(JsonNode node) {
    if (node.isNull()) {
      return null;
    }
    if (node.isBoolean()) {
      return PrimitiveType.BOOLEAN;
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? PrimitiveType.LONG : PrimitiveType.DOUBLE;
    }
    if (node.isNumber()) {
      return PrimitiveType.DOUBLE;
    }
    if (node.isTextual()) {
      return TextValues.isTimestamp(node.textValue()) ? PrimitiveType.TIMESTAMP : PrimitiveType.STRING;
    }
    if (node.isArray()) {
      DataType element = null;
      for (JsonNode child : node) {
        element = merge(element, ofJson(child));
      }
      return new ArrayType(element == null ? PrimitiveType.STRING : element, true);
    }
    Map<String, DataType> fields = new LinkedHashMap<>();
    mergeFields(fields, node);
    return finish(fields);
  }

  private static DataType ofText(String text) {
    String t = text.trim();
    if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
      return PrimitiveType.BOOLEAN;
    }
    try {
      Long.parseLong(t);
      return PrimitiveType.LONG;
    } catch (NumberFormatException e) {
      // not a long
    }
    try {
      if (!t.isEmpty() && (Character.isDigit(t.charAt(t.length() - 1)) || t.endsWith("."))) {
        Double.parseDouble(t);
        return PrimitiveType.DOUBLE;
      }
    } catch (NumberFormatException e) {
      // not a double
    }
    return TextValues.isTimestamp(t) ? PrimitiveType.TIMESTAMP : PrimitiveType.STRING;
  }

  static DataType merge(DataType a, DataType b) {
    if (a == null || a.equals(b)) {
      return b == null ? a : b;
    }
    if (b == null) {
      return a;
    }
    if ((a == PrimitiveType.LONG && b == PrimitiveType.DOUBLE) || (a == PrimitiveType.DOUBLE && b == PrimitiveType.LONG)) {
      return PrimitiveType.DOUBLE;
    }
    if (a instanceof StructType sa && b instanceof StructType sb) {
      Map<String, DataType> fields = new LinkedHashMap<>();
      sa.fields().forEach(f -> fields.put(f.name(), f.type()));
      sb.fields().forEach(f -> fields.put(f.name(), merge(fields.get(f.name()), f.type())));
      return finish(fields);
    }
    if (a instanceof ArrayType aa && b instanceof ArrayType ab) {
      return new ArrayType(merge(aa.elementType(), ab.elementType()), true);
    }
    return PrimitiveType.STRING;
  }

  private static StructType finish(Map<String, DataType> fields) {
    List<StructField> out = new ArrayList<>();
    fields.forEach((name, type) -> out.add(StructField.of(name, type == null ? PrimitiveType.STRING : type)));
    return new StructType(out);
  }
}
