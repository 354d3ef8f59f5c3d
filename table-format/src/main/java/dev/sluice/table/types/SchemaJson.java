package dev.sluice.table.types;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads and writes Spark's StructType JSON, the format of Delta's {@code schemaString}. */
final class SchemaJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  private SchemaJson() {}

  static StructType parse(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      DataType type = parseType(node);
      if (!(type instanceof StructType struct)) {
        throw new IllegalArgumentException("A table schema must be a struct, but got " + type);
      }
      return struct;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("The schema is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  static String toJson(StructType schema) {
    try {
      return MAPPER.writeValueAsString(toNode(schema));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static DataType parseType(JsonNode node) {
    if (node.isTextual()) {
      String name = node.asText();
      if (name.equals("decimal")) {
        return DecimalType.of(10, 0);
      }
      Matcher m = DECIMAL.matcher(name);
      if (m.matches()) {
        return DecimalType.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      }
      return PrimitiveType.fromName(name)
          .orElseThrow(() -> new IllegalArgumentException("Unknown column type '" + name + "' in schema"));
    }
    String kind = node.path("type").asText();
    switch (kind) {
      case "struct": {
        List<StructField> fields = new ArrayList<>();
        for (JsonNode f : node.path("fields")) {
          @SuppressWarnings("unchecked")
          Map<String, Object> metadata =
              f.has("metadata") ? MAPPER.convertValue(f.get("metadata"), Map.class) : Map.of();
          fields.add(new StructField(
              f.path("name").asText(), parseType(f.get("type")), f.path("nullable").asBoolean(true), metadata));
        }
        return new StructType(fields);
      }
      case "array":
        return new ArrayType(parseType(node.get("elementType")), node.path("containsNull").asBoolean(true));
      case "map":
        return new MapType(
            parseType(node.get("keyType")), parseType(node.get("valueType")),
            node.path("valueContainsNull").asBoolean(true));
      default:
        throw new IllegalArgumentException("Unknown complex type '" + kind + "' in schema: " + node);
    }
  }

  private static JsonNode toNode(DataType type) {
    if (type instanceof StructType struct) {
      ObjectNode out = MAPPER.createObjectNode();
      out.put("type", "struct");
      ArrayNode fields = out.putArray("fields");
      for (StructField f : struct.fields()) {
        ObjectNode fn = fields.addObject();
        fn.put("name", f.name());
        fn.set("type", toNode(f.type()));
        fn.put("nullable", f.nullable());
        fn.set("metadata", MAPPER.valueToTree(f.metadata()));
      }
      return out;
    }
    if (type instanceof ArrayType array) {
      ObjectNode out = MAPPER.createObjectNode();
      out.put("type", "array");
      out.set("elementType", toNode(array.elementType()));
      out.put("containsNull", array.containsNull());
      return out;
    }
    if (type instanceof MapType map) {
      ObjectNode out = MAPPER.createObjectNode();
      out.put("type", "map");
      out.set("keyType", toNode(map.keyType()));
      out.set("valueType", toNode(map.valueType()));
      out.put("valueContainsNull", map.valueContainsNull());
      return out;
    }
    return MAPPER.getNodeFactory().textNode(type.typeName());
  }
}
